import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { HEADLESS_SHELL } from '../fixtures/chromium';

/**
 * The environment every test process runs with. Loopback 127.0.0.1 is opened explicitly, and
 * allowlist mode keeps anything (a saved page's external images included) from leaving the machine.
 */
export function testEnvironment(runId: string) {
  const chromium = [HEADLESS_SHELL, '/usr/bin/chromium'].find((p) => existsSync(p));
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: `mysql://root@127.0.0.1:3306/scraper_test_${runId}`,
    REDIS_URL: 'redis://127.0.0.1:6379/0',
    REDIS_PREFIX: `scraper_test_${runId}`,
    KEY_HASH_SECRET: randomBytes(32).toString('hex'),
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    // Bounds a worker's wait for its active jobs when a test closes it (140 s in production); the
    // drain tests set their own.
    SHUTDOWN_GRACE_MS: '15000',
    // Every test's client is 127.0.0.1, so their deliberate 401s would add up against one address;
    // the limit's own test sets it back (apps/api/test/auth-first.e2e-spec.ts).
    AUTH_FAIL_LIMIT_PER_MIN: '100000',
    NET_EGRESS_MODE: 'allowlist',
    NET_ALLOW_CIDRS: '127.0.0.1/32',
    ...(chromium ? { CHROMIUM_PATH: chromium } : {}),
  };
}
