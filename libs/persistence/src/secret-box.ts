import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Provider } from '@nestjs/common';
import { SharedEnv } from '@app/config';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals secrets for storage with AES-256-GCM under SECRETS_ENCRYPTION_KEY (webhook secrets, the
 * caller's request headers). `context` is bound as associated data (e.g. the owning account and
 * environment), so a sealed value copied to another row does not open there.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(hexKey: string) {
    this.key = Buffer.from(hexKey, 'hex');
    if (this.key.length !== 32)
      throw new Error('the secrets encryption key must be 32 bytes (64 hex characters)');
  }

  /** `v1.<base64 nonce | tag | ciphertext>` */
  seal(plain: string, context: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** Throws if the value was altered, sealed under another key, or for another context. */
  open(sealed: string, context: string): string {
    const [version, data] = sealed.split('.');
    if (version !== VERSION || !data) throw new Error('not a sealed secret');
    const raw = Buffer.from(data, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** The box under the deployment's key, for the modules that seal (webhooks, jobs). */
export const secretBoxProvider: Provider = {
  provide: SecretBox,
  inject: [SharedEnv],
  useFactory: (env: SharedEnv) => new SecretBox(env.SECRETS_ENCRYPTION_KEY),
};
