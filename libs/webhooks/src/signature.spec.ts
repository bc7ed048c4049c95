import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, signWebhook, signatureHeader } from './signature';

const headersFor = (id: string, timestamp: number, signature: string) => ({
  'webhook-id': id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': signature,
});

describe('webhook signatures', () => {
  const body = JSON.stringify({ job_id: 'job_1', status: 'completed', result: { ok: 'é ✓' } });
  const now = Math.floor(Date.now() / 1000);

  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('signs as Standard Webhooks verifies, byte for byte', () => {
    const secret = generateWebhookSecret();
    const signature = signWebhook(secret, 'msg_1', now, body);
    expect(signature).toBe(new Webhook(secret).sign('msg_1', new Date(now * 1000), body));
    expect(new Webhook(secret).verify(body, headersFor('msg_1', now, signature))).toEqual(JSON.parse(body));
  });

  it('fails verification for another body, id, timestamp or secret', () => {
    const secret = generateWebhookSecret();
    const signature = signWebhook(secret, 'msg_1', now, body);
    const hook = new Webhook(secret);
    expect(() => hook.verify(body + ' ', headersFor('msg_1', now, signature))).toThrow();
    expect(() => hook.verify(body, headersFor('msg_2', now, signature))).toThrow();
    expect(() => hook.verify(body, headersFor('msg_1', now - 1, signature))).toThrow();
    expect(() =>
      new Webhook(generateWebhookSecret()).verify(body, headersFor('msg_1', now, signature)),
    ).toThrow();
  });

  it('signs with every secret during a rotation overlap, so either one verifies', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const header = signatureHeader([current, previous], 'msg_1', now, body);
    expect(header.split(' ')).toEqual([
      signWebhook(current, 'msg_1', now, body),
      signWebhook(previous, 'msg_1', now, body),
    ]);
    expect(() => new Webhook(current).verify(body, headersFor('msg_1', now, header))).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headersFor('msg_1', now, header))).not.toThrow();
    expect(() =>
      new Webhook(generateWebhookSecret()).verify(body, headersFor('msg_1', now, header)),
    ).toThrow();
  });
});
