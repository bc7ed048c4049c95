import 'tsconfig-paths/register';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, ensureDatabase, runMigrationsLocked } from '@app/persistence';
import { testEnvironment } from './support/test-env';

/** One throwaway database and Redis prefix per run; migrations applied once here. */
export default async function globalSetup(): Promise<void> {
  const runId = randomBytes(4).toString('hex');
  const env = testEnvironment(runId);
  Object.assign(process.env, env);
  await ensureDatabase(env.DATABASE_URL);
  const ds = new DataSource(dataSourceOptions(env.DATABASE_URL, 2));
  await ds.initialize();
  try {
    await runMigrationsLocked(ds);
  } finally {
    await ds.destroy();
  }
}
