// What the benchmarks that run the whole stack share: a throwaway database and Redis prefix, the
// compiled apps as real processes, plans and accounts of their own, Redis's memory figure.
import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { migrate } from '../scripts/migrate';
import { testEnvironment } from '../test/support/test-env';

/** The test environment (loopback only) in production mode, on a database and prefix of the run's own. */
export function benchEnvironment(runId: string, overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...testEnvironment(runId),
    NODE_ENV: 'production',
    DATABASE_URL: `mysql://root@127.0.0.1:3306/scraper_bench_${runId}`,
    REDIS_PREFIX: `scraper_bench_${runId}`,
    ...overrides,
  };
}

/** Creates and migrates the run's database; `drop` removes it. */
export async function benchDatabase(
  env: NodeJS.ProcessEnv,
): Promise<{ db: DataSource; drop: () => Promise<void> }> {
  const url = env.DATABASE_URL!;
  await migrate(url);
  const db = new DataSource({ type: 'mysql', url });
  await db.initialize();
  const name = new URL(url).pathname.slice(1);
  return {
    db,
    drop: async () => {
      await db.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await db.destroy();
    },
  };
}

/**
 * A compiled entry (path from the repository root, without extension) as a child process, started
 * the way this bench runs (compiled, or under ts-node). Its logs go to /dev/null, errors to ours.
 */
export function startEntry(entry: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): ChildProcess {
  const file = resolve(__dirname, '..', `${entry}${__filename.endsWith('.ts') ? '.ts' : '.js'}`);
  return spawn(process.execPath, [...process.execArgv, ...nodeArgs, file], {
    env,
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

export interface BenchPlan {
  ratePerMinute: number;
  monthlyQuota: number;
  maxConcurrentPages: number;
}

export async function createPlan(db: DataSource, name: string, plan: BenchPlan): Promise<void> {
  await db.query(
    'INSERT INTO plans (name, rate_per_minute, monthly_quota, max_concurrent_pages) VALUES (?, ?, ?, ?)',
    [name, plan.ratePerMinute, plan.monthlyQuota, plan.maxConcurrentPages],
  );
}

/** A new account on `plan` through the admin API; returns its production key. */
export async function createAccount(apiUrl: string, adminToken: string, plan: string): Promise<string> {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
  const res = await fetch(`${apiUrl}/admin/v1/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, plan }),
  });
  if (res.status !== 201) throw new Error(`account creation: ${res.status} ${await res.text()}`);
  const { keys } = (await res.json()) as { keys: { environment: string; key: string }[] };
  return keys.find((k) => k.environment === 'production')!.key;
}

/** Redis's own figure for the memory it holds (INFO memory used_memory), in bytes. */
export async function redisUsedMemory(redis: Redis): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1] ?? 0);
}

export const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
