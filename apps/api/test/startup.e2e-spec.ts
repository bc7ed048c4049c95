import { REPO_ROOT, freePort, runCompiled, waitForHttp } from '../../../test/support/processes';
import { startApi } from '../../../test/support/api-harness';

const API = 'apps/api/src/main.js';
const WORKER = 'apps/worker/src/main.js';

/** The run's environment minus the given variables, plus overrides. */
function envWith(overrides: Record<string, string>, without: string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...overrides };
  for (const k of without) delete env[k];
  return env;
}

async function failsWith(entry: string, env: NodeJS.ProcessEnv): Promise<string> {
  const proc = runCompiled(entry, env);
  const code = await proc.exited;
  expect(code).toBe(1);
  return proc.output();
}

describe('start-up of the compiled apps', () => {
  it('refuses to start without its secrets, naming each one', async () => {
    const out = await failsWith(API, envWith({ PORT: '0' }, ['KEY_HASH_SECRET', 'SECRETS_ENCRYPTION_KEY']));
    expect(out).toContain('KEY_HASH_SECRET: is required');
    expect(out).toContain('SECRETS_ENCRYPTION_KEY: is required');
  });

  it('names a bad value', async () => {
    expect(await failsWith(API, envWith({ PORT: 'eighty' }))).toContain('PORT: must be an integer number');
    expect(await failsWith(WORKER, envWith({ WORKER_QUEUES: 'render,pizza' }))).toContain('WORKER_QUEUES:');
    expect(await failsWith(API, envWith({ NET_ALLOW_CIDRS: '127.0.0.1' }))).toContain('NET_ALLOW_CIDRS:');
  });

  it('fails fast, saying how to start MySQL or Redis, when one is unreachable', async () => {
    const port = await freePort();
    const noDb = await failsWith(
      API,
      envWith({ PORT: '0', DATABASE_URL: `mysql://root@127.0.0.1:${port}/x` }),
    );
    expect(noDb).toContain('MySQL/MariaDB is not reachable');
    expect(noDb).toContain('mariadbd');
    const noRedis = await failsWith(API, envWith({ PORT: '0', REDIS_URL: `redis://127.0.0.1:${port}/0` }));
    expect(noRedis).toContain('Redis is not reachable');
    expect(noRedis).toContain('redis-server');
  });

  it('creates an account from the command line, printing two working keys once', async () => {
    const proc = runCompiled('scripts/account-create.js', envWith({}));
    // No arguments: usage, exit 2.
    expect(await proc.exited).toBe(2);
    const email = `cli-${Date.now()}@example.test`;
    const cli = (await import('node:child_process')).spawnSync(
      process.execPath,
      ['dist/scripts/account-create.js', '--email', email, '--plan', 'free'],
      { cwd: REPO_ROOT, env: envWith({}), encoding: 'utf8' },
    );
    expect(cli.status).toBe(0);
    const keys = cli.stdout.match(/osk_(live|test)_[0-9A-Za-z]{39}/g);
    expect(keys).toHaveLength(2);
    const api = await startApi();
    try {
      for (const key of keys!) {
        const me = await api.http().get('/v1/me').set('Authorization', `Bearer ${key}`).expect(200);
        expect(me.body.user).toEqual({ email, plan: 'free', limit: 1000 });
      }
    } finally {
      await api.close();
    }
  });

  it('boots the worker with health and readiness on WORKER_PORT', async () => {
    const port = await freePort();
    const worker = runCompiled(WORKER, envWith({ WORKER_PORT: String(port) }));
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok', checks: { mysql: 'ok', redis: 'ok' } });
    } finally {
      worker.child.kill('SIGTERM');
      // Nothing to drain: the worker closes and exits 0.
      expect(await worker.exited).toBe(0);
    }
  });
});
