import { ApiEnv, DatabaseEnv, WorkerEnv } from './env.schema';
import { ConfigError, parseEnv } from './parse-env';
import { durationToMs } from './duration';

const SECRETS = { KEY_HASH_SECRET: 'k'.repeat(32), SECRETS_ENCRYPTION_KEY: 'ab'.repeat(32) };

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('env schema', () => {
  it('applies the documented defaults', () => {
    const api = parseEnv(ApiEnv, { ...SECRETS });
    expect(api).toMatchObject({
      PORT: 3000,
      DATABASE_URL: 'mysql://root@127.0.0.1:3306/scraper',
      REDIS_URL: 'redis://127.0.0.1:6379/0',
      NET_ALLOW_CIDRS: [],
      NET_EGRESS_MODE: 'public',
      RESULT_RETENTION_DAYS: 7,
      WEBHOOK_RETRY_SCHEDULE: ['30s', '2m', '10m', '1h', '6h'],
      WEBHOOK_TIMEOUT_MS: 30000,
      WEBHOOK_INLINE_MAX_BYTES: 5242880,
    });
    const worker = parseEnv(WorkerEnv, { ...SECRETS });
    expect(worker).toMatchObject({ WORKER_PORT: 3001, WORKER_QUEUES: ['render', 'crawl', 'webhooks'] });
  });

  it('parses lists, numbers and durations', () => {
    const env = parseEnv(WorkerEnv, {
      ...SECRETS,
      NET_ALLOW_CIDRS: '127.0.0.1/32, 10.1.0.0/16',
      WORKER_QUEUES: 'render,webhooks',
      WEBHOOK_RETRY_SCHEDULE: '10ms,20ms',
      WORKER_PORT: '4001',
      PORT: 'ignored: not a worker variable',
    });
    expect(env.NET_ALLOW_CIDRS).toEqual(['127.0.0.1/32', '10.1.0.0/16']);
    expect(env.WORKER_QUEUES).toEqual(['render', 'webhooks']);
    expect(env.WEBHOOK_RETRY_SCHEDULE.map(durationToMs)).toEqual([10, 20]);
    expect(env.WORKER_PORT).toBe(4001);
  });

  it('takes RENDER_CONCURRENCY as auto (the default) or a number', () => {
    expect(parseEnv(WorkerEnv, { ...SECRETS }).RENDER_CONCURRENCY).toBe('auto');
    expect(parseEnv(WorkerEnv, { ...SECRETS, RENDER_CONCURRENCY: '6' }).RENDER_CONCURRENCY).toBe(6);
    expect(problemsOf(() => parseEnv(WorkerEnv, { ...SECRETS, RENDER_CONCURRENCY: 'lots' }))).toEqual([
      'RENDER_CONCURRENCY: must be auto or a whole number',
    ]);
    expect(problemsOf(() => parseEnv(WorkerEnv, { ...SECRETS, RENDER_CONCURRENCY: '0' }))).toEqual([
      expect.stringMatching(/^RENDER_CONCURRENCY: /),
    ]);
  });

  it('names every bad or missing variable', () => {
    const problems = problemsOf(() =>
      parseEnv(ApiEnv, { PORT: 'eighty', NET_EGRESS_MODE: 'open', DATABASE_URL: 'postgres://x/y' }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT: /),
        expect.stringMatching(/^NET_EGRESS_MODE: /),
        expect.stringMatching(/^DATABASE_URL: must look like mysql:/),
        expect.stringMatching(/^KEY_HASH_SECRET: is required/),
        expect.stringMatching(/^SECRETS_ENCRYPTION_KEY: is required/),
      ]),
    );
    expect(problems).toHaveLength(5);
    expect(problemsOf(() => parseEnv(ApiEnv, { ...SECRETS, WEBHOOK_RETRY_SCHEDULE: '30s,soon' }))).toEqual([
      expect.stringMatching(/^WEBHOOK_RETRY_SCHEDULE: /),
    ]);
    expect(problemsOf(() => parseEnv(ApiEnv, { ...SECRETS, KEY_HASH_SECRET: 'short' }))).toEqual([
      'KEY_HASH_SECRET: must be at least 32 characters (generate with: openssl rand -hex 32)',
    ]);
  });

  it('lets the migration runner start with a database URL alone', () => {
    expect(parseEnv(DatabaseEnv, { DATABASE_URL: 'mysql://root@db:3306/scraper' }).DATABASE_URL).toBe(
      'mysql://root@db:3306/scraper',
    );
  });
});
