import { createHmac, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Environment } from '@app/persistence';

// DESIGN.md "API keys": osk_live_/osk_test_, 192 random bits in base62, then a 6-character
// checksum so a leaked key can be recognised offline (as GitHub's token format does).
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 33; // 62^33 > 2^192
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32
const PREFIXES: Record<Environment, string> = { production: 'osk_live_', sandbox: 'osk_test_' };
const KEY_PATTERN = new RegExp(
  `^osk_(live|test)_([0-9A-Za-z]{${BODY_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);

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

export function generateApiKey(environment: Environment): GeneratedKey {
  const body = base62(BigInt(`0x${randomBytes(24).toString('hex')}`), BODY_LENGTH);
  const head = PREFIXES[environment] + body;
  const key = head + checksum(head);
  return { key, prefix: key.slice(0, PREFIXES[environment].length + 4), last4: key.slice(-4) };
}

/** The environment a well-formed key belongs to, or null when format or checksum is wrong. */
export function parseApiKey(key: string): Environment | null {
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  const head = `osk_${m[1]}_${m[2]}`;
  if (checksum(head) !== m[3]) return null;
  return m[1] === 'live' ? 'production' : 'sandbox';
}

/** Keyed hash stored at rest; without KEY_HASH_SECRET a stolen table cannot be brute-forced offline. */
export function hashApiKey(key: string, secret: string): string {
  return createHmac('sha256', secret).update(key).digest('hex');
}
