import { createSecretKey } from 'node:crypto';
import { generateApiKey, hashApiKey, keyKind, parseApiKey } from './api-keys';

describe('API keys', () => {
  it('has the documented format: prefix, 33 base62 characters, 6-character checksum', () => {
    const live = generateApiKey('production');
    const test = generateApiKey('sandbox');
    expect(live.key).toMatch(/^osk_live_[0-9A-Za-z]{39}$/);
    expect(test.key).toMatch(/^osk_test_[0-9A-Za-z]{39}$/);
    expect(live.prefix).toBe(live.key.slice(0, 13));
    expect(live.last4).toBe(live.key.slice(-4));
  });

  it('is random: no two of a thousand keys are equal', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('production').key));
    expect(keys.size).toBe(1000);
  });

  it('recognises its environment and rejects a broken checksum or format', () => {
    const { key } = generateApiKey('sandbox');
    expect(parseApiKey(key)).toBe('sandbox');
    expect(parseApiKey(generateApiKey('production').key)).toBe('production');
    const last = key.at(-1) === 'a' ? 'b' : 'a';
    expect(parseApiKey(key.slice(0, -1) + last)).toBeNull();
    const body = key.slice(9, 42);
    const flipped = (body[0] === 'A' ? 'B' : 'A') + body.slice(1);
    expect(parseApiKey(`osk_test_${flipped}${key.slice(42)}`)).toBeNull();
    expect(parseApiKey(key.replace('osk_test_', 'osk_live_'))).toBeNull();
    expect(parseApiKey('osk_live_short')).toBeNull();
    expect(parseApiKey('')).toBeNull();
  });

  it('makes admin keys that are never taken for a customer key', () => {
    const admin = generateApiKey('admin');
    expect(admin.key).toMatch(/^osk_admin_[0-9A-Za-z]{39}$/);
    expect(admin.prefix).toBe(admin.key.slice(0, 14));
    expect(keyKind(admin.key)).toBe('admin');
    expect(parseApiKey(admin.key)).toBeNull();
    expect(keyKind(admin.key.replace('osk_admin_', 'osk_live_'))).toBeNull();
    expect(keyKind(generateApiKey('production').key)).toBe('production');
  });

  it('hashes with the secret: same key, other secret, other hash', () => {
    const { key } = generateApiKey('production');
    expect(hashApiKey(key, 'a'.repeat(32))).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key, 'a'.repeat(32))).toBe(hashApiKey(key, 'a'.repeat(32)));
    expect(hashApiKey(key, 'a'.repeat(32))).not.toBe(hashApiKey(key, 'b'.repeat(32)));
    // Keys stored before the secret was held as a KeyObject still match.
    expect(hashApiKey(key, createSecretKey(Buffer.from('a'.repeat(32))))).toBe(
      hashApiKey(key, 'a'.repeat(32)),
    );
  });
});
