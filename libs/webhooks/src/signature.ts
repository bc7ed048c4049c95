import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks' secret prefix: what follows is the base64 of the HMAC key. */
const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes, one per account and environment. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** One signature entry, `v1,<base64 HMAC-SHA256(key, id.timestamp.body)>`, as Standard Webhooks defines it. */
export function signWebhook(secret: string, msgId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The webhook-signature header: one entry per secret, space-separated, so that during a rotation
 * overlap a receiver holding either secret finds a match.
 */
export function signatureHeader(
  secrets: readonly string[],
  msgId: string,
  timestamp: number,
  body: string,
): string {
  return secrets.map((s) => signWebhook(s, msgId, timestamp, body)).join(' ');
}
