// The same API a customer's code calls (/v1 with an API key, /admin/v1 with an admin key). The key
// is kept in this tab's sessionStorage and sent only in the Authorization header, never in a URL.

const STORE = 'scraper.dashboard.key';

/** Who is signed in: role is 'customer' or 'admin' once the key was accepted, env a customer's. */
export const session = { key: sessionStorage.getItem(STORE), role: null, env: null };

/** A customer key's environment by its prefix; null for anything else (an admin key). */
export function environmentOf(key) {
  if (key.startsWith('osk_live_')) return 'production';
  return key.startsWith('osk_test_') ? 'sandbox' : null;
}

export const isAdmin = () => session.role === 'admin';
/** Deliveries and jobs have one page each for both views: only the prefix differs. */
export const base = () => (isAdmin() ? '/admin/v1' : '/v1');

export function keepKey(key) {
  sessionStorage.setItem(STORE, key);
}

export function forgetKey() {
  sessionStorage.removeItem(STORE);
  Object.assign(session, { key: null, role: null, env: null });
}

let onRefused = () => {};
/** What to do when a signed-in key is refused (revoked, or the account suspended). */
export function whenRefused(fn) {
  onRefused = fn;
}

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.detail ? body.detail : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** A query string of the parameters that have a value ('' when none has). */
export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, v);
  const q = u.toString();
  return q ? `?${q}` : '';
}

/** `key` is the session's unless given (the playground may run with another key of the customer's). */
export async function call(method, path, body, key = session.key) {
  const res = await fetch(path, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      Accept: 'application/json',
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    cache: 'no-store',
    credentials: 'omit',
  });
  const data = await res.json().catch(() => null);
  // Only the session's own key being refused signs out.
  if (res.status === 401 && session.role && key === session.key) onRefused();
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}
