import { randomBytes } from 'node:crypto';
import { WorkerEnv } from './env.schema';
import { parseEnv } from './parse-env';

/**
 * The worker's schema for a process that only renders in-process (the CLI): it stores nothing and
 * signs nothing, so the stores' URLs are not read and the secrets are throwaway values of this
 * process, never the operator's. Everything else (address policy, Chromium, limits) is read as the
 * worker reads it.
 */
export function loadRenderingEnv(env: NodeJS.ProcessEnv = process.env): WorkerEnv {
  return parseEnv(WorkerEnv, {
    ...env,
    DATABASE_URL: undefined,
    REDIS_URL: undefined,
    KEY_HASH_SECRET: randomBytes(32).toString('hex'),
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  });
}
