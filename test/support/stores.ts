import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { dataSourceOptions, ensureDatabase, runMigrationsLocked } from '@app/persistence';

/** Creates the database of `databaseUrl` if missing and brings it to the latest migration. */
export async function migratedDatabase(databaseUrl: string): Promise<void> {
  await ensureDatabase(databaseUrl);
  const ds = new DataSource(dataSourceOptions(databaseUrl, 2));
  await ds.initialize();
  try {
    await runMigrationsLocked(ds);
  } finally {
    await ds.destroy();
  }
}

/** Drops a test database and every Redis key under `redisPrefix`; anything but scraper_test_* is left alone. */
export async function dropStores(databaseUrl: string, redisUrl: string, redisPrefix: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  if (!name.startsWith('scraper_test_')) return;
  url.pathname = '/';
  const admin = new DataSource({ type: 'mysql', url: url.toString() });
  await admin.initialize();
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.destroy();
  const redis = new Redis(redisUrl);
  const stream = redis.scanStream({ match: `${redisPrefix}*`, count: 1000 });
  for await (const keys of stream as AsyncIterable<string[]>) if (keys.length) await redis.unlink(...keys);
  redis.disconnect();
}

/**
 * A database and Redis prefix of a test's own, for tests that count everything the apps did (no
 * other suite's leftover jobs in the queues or reconciled from MySQL). Pass `env` to the apps.
 */
export async function isolatedStores(): Promise<{
  env: { DATABASE_URL: string; REDIS_PREFIX: string };
  drop: () => Promise<void>;
}> {
  const suffix = randomBytes(4).toString('hex');
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `${url.pathname}_${suffix}`;
  const env = { DATABASE_URL: url.toString(), REDIS_PREFIX: `${process.env.REDIS_PREFIX}_${suffix}` };
  await migratedDatabase(env.DATABASE_URL);
  return { env, drop: () => dropStores(env.DATABASE_URL, process.env.REDIS_URL!, env.REDIS_PREFIX) };
}
