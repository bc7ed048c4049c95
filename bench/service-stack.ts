// The whole service for the benchmarks that go end to end: a redis-server and a MariaDB database of
// the bench's own, the API and one worker as child processes (compiled, or under ts-node when the
// bench runs that way), and an account with a production key.
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { migrate } from '../scripts/migrate';
import { freePort, waitForHttp } from '../test/support/processes';
import { startRedisServer, type OwnRedis } from '../test/support/redis-server';
import { testEnvironment } from '../test/support/test-env';

export interface ServiceStackOptions {
  /** Worker settings on top of the bench environment (WORKER_QUEUES, RENDER_CONCURRENCY, ...). */
  worker: NodeJS.ProcessEnv;
  /** The account's plan; enterprise's limits stay out of a benchmark's way. */
  plan?: string;
}

export interface ServiceStack {
  apiUrl: string;
  /** The account's production key. */
  key: string;
  env: NodeJS.ProcessEnv;
  redis: OwnRedis;
  api: ChildProcess;
  worker: ChildProcess;
  /** JSON in and out; throws on a non-2xx answer. */
  call(path: string, init: RequestInit & { token?: string }): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

function startApp(app: 'api' | 'worker', env: NodeJS.ProcessEnv): ChildProcess {
  const ext = __filename.endsWith('.ts') ? '.ts' : '.js';
  const entry = resolve(__dirname, '..', 'apps', app, 'src', `main${ext}`);
  return spawn(process.execPath, [...process.execArgv, entry], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function stopApp(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

async function dropDatabase(name: string): Promise<void> {
  const admin = new DataSource({ type: 'mysql', url: 'mysql://root@127.0.0.1:3306/mysql' });
  await admin.initialize();
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.destroy();
}

export async function startServiceStack({
  worker,
  plan = 'enterprise',
}: ServiceStackOptions): Promise<ServiceStack> {
  const runId = randomBytes(4).toString('hex');
  const database = `scraper_bench_${runId}`;
  const redis = await startRedisServer();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...testEnvironment(runId),
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: `mysql://root@127.0.0.1:3306/${database}`,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `scraper_bench_${runId}`,
  };
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(stopApp));
    await redis.stop();
    await dropDatabase(database);
  };
  try {
    await migrate(env.DATABASE_URL!);
    const apiPort = await freePort();
    const workerPort = await freePort();
    const api = startApp('api', { ...env, PORT: String(apiPort) });
    children.push(api);
    const workerProcess = startApp('worker', { ...env, ...worker, WORKER_PORT: String(workerPort) });
    children.push(workerProcess);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    await waitForHttp(`${apiUrl}/healthz`, 60_000);
    await waitForHttp(`http://127.0.0.1:${workerPort}/readyz`, 60_000);
    const call = async (
      path: string,
      { token = env.ADMIN_TOKEN!, ...init }: RequestInit & { token?: string },
    ) => {
      const res = await fetch(apiUrl + path, {
        ...init,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const account = await call('/admin/v1/accounts', {
      method: 'POST',
      body: JSON.stringify({ email: `bench-${runId}@example.test`, plan }),
    });
    const key = (account.keys as { environment: string; key: string }[]).find(
      (k) => k.environment === 'production',
    )!.key;
    return { apiUrl, key, env, redis, api, worker: workerProcess, call, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
