import 'tsconfig-paths/register';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { testEnvironment } from '../support/test-env';
import { API_IMAGE, RESTRICTED, podman } from './podman';

/**
 * One throwaway database and Redis prefix per run, as the main suite's global setup makes, but
 * migrated the way an operator does: by the API image's migrate script in a container (the
 * migration Job's command, k8s/migrate/job.yaml). Its output stays in CONTAINER_MIGRATE_OUTPUT
 * for the specs.
 */
export default async function globalSetup(): Promise<void> {
  const env = testEnvironment(randomBytes(4).toString('hex'));
  Object.assign(process.env, env);
  try {
    process.env.CONTAINER_MIGRATE_OUTPUT = podman(
      ...['run', '--rm', ...RESTRICTED, '-e', 'NODE_ENV=production', '-e', 'LOG_LEVEL=info'],
      ...['-e', `DATABASE_URL=${env.DATABASE_URL}`, API_IMAGE, 'node', 'dist/scripts/migrate.js'],
    );
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`the migrations failed in ${API_IMAGE}: ${stdout ?? ''}${stderr ?? ''}`);
  }
}
