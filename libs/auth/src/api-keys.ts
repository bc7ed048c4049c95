import { KeyObject, createHmac, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Environment } from '@app/persistence';

// osk_live_/osk_test_ (osk_admin_ for admins), 192 random bits in base62, then a 6-character
// checksum so a leaked key can be recognised offline, as GitHub's token format does
// (docs/decisions.md, API keys).
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 33; // 62^33 > 2^192
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32
/** Whose key: a customer's environment, or an admin's. */
export type KeyKind = Environment | 'admin';
const PREFIXES: Record<KeyKind, string> = {
  production: 'osk_live_',
  sandbox: 'osk_test_',
  admin: 'osk_admin_',
};
const KEY_PATTERN = new RegExp(
  `^osk_(live|test|admin)_([0-9A-Za-z]{${BODY_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);
const KINDS: Record<string, KeyKind> = { live: 'production', test: 'sandbox', admin: 'admin' };

function base62(value: bigint, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

function checksum(prefixAndBody: string): string {
  return base62(BigInt(crc32(prefixAndBody)), CHECKSUM_LENGTH);
}

export interface GeneratedKey {
  key: string;
  prefix: string;
  last4: string;
}

export function generateApiKey(kind: KeyKind): GeneratedKey {
  const body = base62(BigInt(`0x${randomBytes(24).toString('hex')}`), BODY_LENGTH);
  const head = PREFIXES[kind] + body;
  const key = head + checksum(head);
  return { key, prefix: key.slice(0, PREFIXES[kind].length + 4), last4: key.slice(-4) };
}

/** Whose a well-formed key is, or null when format or checksum is wrong. */
export function keyKind(key: string): KeyKind | null {
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  const head = `osk_${m[1]}_${m[2]}`;
  if (checksum(head) !== m[3]) return null;
  return KINDS[m[1]];
}

/** The environment of a well-formed customer key; null for anything else, an admin key included. */
export function parseApiKey(key: string): Environment | null {
  const kind = keyKind(key);
  return kind === 'admin' ? null : kind;
}

/**
 * Keyed hash stored at rest; without KEY_HASH_SECRET a stolen table cannot be brute-forced offline.
 * A KeyObject of the secret gives the same hash at half the cost of the string (every request pays it).
 */
export function hashApiKey(key: string, secret: string | KeyObject): string {
  return createHmac('sha256', secret).update(key).digest('hex');
}
