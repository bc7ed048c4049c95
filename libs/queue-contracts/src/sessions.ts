/**
 * Sessions (docs/api.md, Sessions): cookies and localStorage a caller's `session_id` carries from
 * one request to the next. Types only: libs/sessions stores them sealed, the engines restore and
 * read them.
 */

/** What `session_id` may be: chosen by the caller, unique per account and environment. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** A cookie as Chromium's DevTools protocol reports it; the http engine's jar keeps the same shape. */
export interface SessionCookie {
  name: string;
  value: string;
  /** A leading dot: sent to subdomains too (a Domain attribute); none: to this host only. */
  domain: string;
  path: string;
  /** Epoch seconds; -1 for a session cookie (kept with the session, as a browser keeps it until closed). */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

export interface SessionState {
  cookies: SessionCookie[];
  /** localStorage by origin (`https://host:port`), as [key, value] pairs. */
  origins: { origin: string; localStorage: [string, string][] }[];
}

export const EMPTY_SESSION: SessionState = { cookies: [], origins: [] };
