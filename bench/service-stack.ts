// The whole service for the benchmarks that go end to end: a MariaDB database and (by default) a
// redis-server of the bench's own, the API and a worker as child processes (compiled, or under
// ts-node when the bench runs that way), an account with a production key and, on request, the
// fixture site. Everything is removed again by stop().
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { migrate } from '../scripts/migrate';
import { type FixtureSite, startFixtureSite } from '../test/fixtures/site/fixture-site';
import { freePort, waitForHttp } from '../test/support/processes';
import { startRedisServer, type OwnRedis } from '../test/support/redis-server';
import { BENCH_SANDBOX_ENV } from '../test/fixtures/chromium';
import { testEnvironment } from '../test/support/test-env';

export interface ServiceStackOptions {
  /** Worker settings (WORKER_QUEUES, RENDER_CONCURRENCY, ...); without them, startWorker() later. */
  worker?: NodeJS.ProcessEnv;
  /** The account's plan; enterprise's limits stay out of a benchmark's way. */
  plan?: string;
  /** 'shared': the machine's Redis instead of a redis-server of the bench's own. */
  redis?: 'own' | 'shared';
  logLevel?: string;
  /** Extra node arguments of the API's process (--cpu-prof, ...). */
  apiNodeArgs?: string[];
  /** Serve the fixture site too (no Crawl-delay; loopback is where its pages are, not a trap). */
  site?: boolean;
  /**
   * Start the API and a worker as `npm start` does (dist/scripts/start.js), at their defaults: no
   * setting of the bench's or its caller's that tunes them reaches them (see NPM_START_DROPS), and
   * no developer's .env.local. `api` is then start.js, whose process tree holds both; `worker`
   * stays undefined (the worker's port is `workerPort`). `worker` and `apiNodeArgs` do not apply.
   */
  npmStart?: boolean;
}

/**
 * What `npm start` would not be given: the test environment's and the benches' own choices
 * (NODE_ENV, LOG_LEVEL, CHROMIUM_PATH) and any tuning of the caller's shell. It keeps the
 * database, Redis, secrets, egress allowlist and sandbox settings, which a developer must give it.
 */
const NPM_START_DROPS =
  /^(NODE_ENV|LOG_LEVEL|CHROMIUM_PATH|RENDER_.*|BROWSER_.*|HOST_CONCURRENCY|CONTENT_THREADS|WORKER_QUEUES)$/;

export interface BenchPlan {
  ratePerMinute: number;
  monthlyQuota: number;
  maxConcurrentPages: number;
}

export interface ServiceStack {
  /** Names the run's database and Redis prefix; for names of the bench's own (plans, ...). */
  runId: string;
  apiUrl: string;
  /** The account's production key. */
  key: string;
  env: NodeJS.ProcessEnv;
  db: DataSource;
  /** The bench's own redis-server and a client of it; undefined on the shared one. */
  redis: OwnRedis | undefined;
  redisClient: Redis | undefined;
  /** The fixture site, with `site: true`. */
  site: FixtureSite | undefined;
  api: ChildProcess;
  /** Undefined until a worker has started. */
  worker: ChildProcess | undefined;
  /** The latest worker's WORKER_PORT (health and metrics). */
  workerPort: number | undefined;
  /** Starts the worker with these settings and waits until it is ready. */
  /** `nodeArgs`: node's own flags for the worker (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
  startWorker(settings: NodeJS.ProcessEnv, nodeArgs?: string[]): Promise<ChildProcess>;
  createPlan(name: string, plan: BenchPlan): Promise<void>;
  /** A new account on `plan`; returns its production key. */
  createAccount(plan: string): Promise<string>;
  /** JSON in and out (the admin token unless `token`); throws on a non-2xx answer. */
  call(path: string, init?: RequestInit & { token?: string }): Promise<Record<string, unknown>>;
  /** Polls GET /v1/jobs/{id} (one page result an answer) until the job has ended; its last answer. */
  waitForJobEnd(token: string, jobId: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/**
 * An entry (path from the repository root, without extension) as a child process, started the way
 * this bench runs (compiled, or under ts-node). Its logs go to /dev/null, errors to ours.
 */
export function startEntry(
  entry: string,
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
  cwd?: string,
): ChildProcess {
  const file = resolve(__dirname, '..', `${entry}${__filename.endsWith('.ts') ? '.ts' : '.js'}`);
  return spawn(process.execPath, [...process.execArgv, ...nodeArgs, file], {
    env,
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Ends a child process with SIGTERM and waits until it has exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export async function startServiceStack({
  worker: workerSettings,
  plan = 'enterprise',
  redis: redisKind = 'own',
  logLevel = 'warn',
  apiNodeArgs = [],
  site: withSite = false,
  npmStart = false,
}: ServiceStackOptions = {}): Promise<ServiceStack> {
  const runId = randomBytes(4).toString('hex');
  const database = `scraper_bench_${runId}`;
  const redis = redisKind === 'own' ? await startRedisServer() : undefined;
  const redisClient = redis && new Redis(redis.url);
  const site = withSite
    ? await startFixtureSite({ crawlDelaySeconds: null, trapRefusedAddresses: false })
    : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...testEnvironment(runId),
    NODE_ENV: 'production',
    ...BENCH_SANDBOX_ENV,
    LOG_LEVEL: logLevel,
    DATABASE_URL: `mysql://root@127.0.0.1:3306/${database}`,
    ...(redis ? { REDIS_URL: redis.url } : {}),
    REDIS_PREFIX: `scraper_bench_${runId}`,
  };
  const children: ChildProcess[] = [];
  let db: DataSource | undefined;
  // start.js reads .env.local from its working directory: an empty one of its own.
  const emptyDir = npmStart ? mkdtempSync(join(tmpdir(), 'bench-npm-start-')) : undefined;
  const stop = async () => {
    await Promise.all(children.map(stopProcess));
    if (emptyDir) rmSync(emptyDir, { recursive: true, force: true });
    redisClient?.disconnect();
    await redis?.stop();
    await site?.close();
    if (db?.isInitialized) {
      await db.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await db.destroy();
    }
  };
  try {
    await migrate(env.DATABASE_URL!);
    db = new DataSource({ type: 'mysql', url: env.DATABASE_URL });
    await db.initialize();
    const apiPort = await freePort();
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const npmStartPort = npmStart ? await freePort() : undefined;
    const api = npmStart
      ? startEntry(
          'scripts/start',
          {
            ...Object.fromEntries(Object.entries(env).filter(([k]) => !NPM_START_DROPS.test(k))),
            PORT: String(apiPort),
            WORKER_PORT: String(npmStartPort),
          },
          [],
          emptyDir,
        )
      : startEntry('apps/api/src/main', { ...env, PORT: String(apiPort) }, apiNodeArgs);
    children.push(api);
    const call = async (
      path: string,
      { token = env.ADMIN_TOKEN!, ...init }: RequestInit & { token?: string } = {},
    ) => {
      const res = await fetch(apiUrl + path, {
        ...init,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as Record<string, unknown>;
      if (!res.ok) {
        const method = init.method ?? 'GET';
        throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body).slice(0, 500)}`);
      }
      return body;
    };
    const createAccount = async (accountPlan: string) => {
      const email = `bench-${runId}-${randomBytes(4).toString('hex')}@example.test`;
      const { keys } = await call('/admin/v1/accounts', {
        method: 'POST',
        body: JSON.stringify({ email, plan: accountPlan }),
      });
      return (keys as { environment: string; key: string }[]).find((k) => k.environment === 'production')!
        .key;
    };
    const stack: ServiceStack = {
      runId,
      apiUrl,
      key: '',
      env,
      db,
      redis,
      redisClient,
      site,
      api,
      worker: undefined,
      workerPort: npmStartPort,
      startWorker: async (settings, nodeArgs = []) => {
        const workerPort = await freePort();
        const worker = startEntry(
          'apps/worker/src/main',
          { ...env, ...settings, WORKER_PORT: String(workerPort) },
          nodeArgs,
        );
        children.push(worker);
        stack.worker = worker;
        stack.workerPort = workerPort;
        await waitForHttp(`http://127.0.0.1:${workerPort}/readyz`, 60_000);
        return worker;
      },
      createPlan: async (name, { ratePerMinute, monthlyQuota, maxConcurrentPages }) => {
        await db!.query(
          'INSERT INTO plans (name, rate_per_minute, monthly_quota, max_concurrent_pages) VALUES (?, ?, ?, ?)',
          [name, ratePerMinute, monthlyQuota, maxConcurrentPages],
        );
      },
      createAccount,
      call,
      waitForJobEnd: async (token, jobId) => {
        for (;;) {
          const job = await call(`/v1/jobs/${jobId}?page_size=1`, { token });
          if (!['queued', 'running'].includes(job.status as string)) return job;
          // As bench:render's client polls: the service's answers to polls are part of what it costs.
          await new Promise((r) => setTimeout(r, 500));
        }
      },
      stop,
    };
    await Promise.all([
      waitForHttp(`${apiUrl}/healthz`, 60_000),
      npmStartPort
        ? waitForHttp(`http://127.0.0.1:${npmStartPort}/readyz`, 60_000)
        : workerSettings && stack.startWorker(workerSettings),
    ]);
    stack.key = await createAccount(plan);
    return stack;
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Redis's own figure for the memory it holds (INFO memory used_memory), in bytes. */
export async function redisUsedMemory(redis: Redis): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1] ?? 0);
}

export const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
