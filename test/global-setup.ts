import 'tsconfig-paths/register';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { testEnvironment } from './support/test-env';
import { migratedDatabase } from './support/stores';

/** One throwaway database and Redis prefix per run; migrations applied once here. */
export default async function globalSetup(): Promise<void> {
  const runId = randomBytes(4).toString('hex');
  const env = testEnvironment(runId);
  Object.assign(process.env, env);
  await migratedDatabase(env.DATABASE_URL);
}
