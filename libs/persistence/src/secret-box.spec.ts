import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32).toString('hex'));

  it('opens what it sealed, and never stores the clear value', () => {
    const sealed = box.seal('whsec_abc', 'acc_1:production');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed, 'acc_1:production')).toBe('whsec_abc');
    expect(box.seal('whsec_abc', 'acc_1:production')).not.toBe(sealed);
  });

  it('refuses another context, another key and altered data', () => {
    const sealed = box.seal('whsec_abc', 'acc_1:production');
    expect(() => box.open(sealed, 'acc_2:production')).toThrow();
    expect(() => new SecretBox(randomBytes(32).toString('hex')).open(sealed, 'acc_1:production')).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => box.open(`v1.${raw.toString('base64')}`, 'acc_1:production')).toThrow();
    expect(() => box.open('plain', 'acc_1:production')).toThrow('not a sealed secret');
  });

  it('wants a 256-bit key', () => {
    expect(() => new SecretBox('abcd')).toThrow('32 bytes');
  });
});
