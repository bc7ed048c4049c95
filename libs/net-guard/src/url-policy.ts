import { isIP } from 'node:net';
import { InvalidRequestError } from '@app/common';
import type { AddressPolicy } from './address-policy';
import { bareHost, defaultResolver, resolveAllowed, type HostResolver } from './resolve-host';

/** Scrape targets may be http or https; webhook receivers https only (spec, Events rule 1). */
export type UrlKind = 'target' | 'webhook';

const SCHEMES: Record<UrlKind, string[]> = { target: ['http:', 'https:'], webhook: ['https:'] };

export const MAX_URL_LENGTH = 2048;

export interface ParseUrlOptions {
  kind: UrlKind;
  /** The request field named in the error; defaults to `url` or `webhook_url`. */
  field?: string;
}

/**
 * Checks a caller's URL and returns it WHATWG-normalised, so that every later check sees the
 * host a client would dial (e.g. 0x7f000002 and 2130706434 become 127.0.0.2). The messages never
 * repeat the URL, which may carry secrets.
 */
export function parseTargetUrl(raw: unknown, options: ParseUrlOptions): URL {
  const field = options.field ?? (options.kind === 'webhook' ? 'webhook_url' : 'url');
  const fail = (message: string) => InvalidRequestError.field(field, message);
  if (typeof raw !== 'string' || raw.length === 0) throw fail('must be a non-empty string');
  if (raw.length > MAX_URL_LENGTH) throw fail(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail('must be an absolute URL with a valid host and a port from 1 to 65535');
  }
  const allowed = SCHEMES[options.kind];
  if (!allowed.includes(url.protocol)) {
    const schemes = allowed.map((s) => s.slice(0, -1)).join(' or ');
    throw fail(`must use ${schemes}, not ${url.protocol.slice(0, -1)}`);
  }
  if (url.username || url.password) throw fail('must not contain credentials (user:password@)');
  if (!url.hostname) throw fail('must have a host');
  if (url.port === '0') throw fail('must have a port from 1 to 65535');
  if (url.href.length > MAX_URL_LENGTH)
    throw fail(`must be at most ${MAX_URL_LENGTH} characters once normalised`);
  return url;
}

/** True when the URL names an IP address rather than a host name. */
export function hostIsLiteralIp(url: URL): boolean {
  return isIP(bareHost(url.hostname)) !== 0;
}

/**
 * Resolves the URL's host and returns its addresses if the policy allows every one of them;
 * throws BlockedAddressError or DnsError otherwise. Dials nothing. A check ahead of time only:
 * the connection itself must still be pinned (egress proxy, guarded agents).
 */
export function vetUrl(
  url: URL,
  policy: AddressPolicy,
  resolver: HostResolver = defaultResolver,
): Promise<string[]> {
  return resolveAllowed(url.hostname, policy, resolver);
}
