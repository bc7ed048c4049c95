import { DataSource } from 'typeorm';

const LOCK_NAME = 'scraper_migrations';
const LOCK_WAIT_SECONDS = 300;

/**
 * Applies pending migrations while holding a MySQL named lock, so replicas that start together run
 * them once: the second waits for the lock, then finds nothing pending. Returns the names applied.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const [row] = (await runner.query('SELECT GET_LOCK(?, ?) AS got', [LOCK_NAME, LOCK_WAIT_SECONDS])) as {
      got: number | null;
    }[];
    if (row?.got !== 1) throw new Error(`could not take the migration lock within ${LOCK_WAIT_SECONDS}s`);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
    }
  } finally {
    await runner.release();
  }
}

/** Creates the database named in the URL if it is missing (a fresh laptop, a test run). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.replace(/^\//, '');
  url.pathname = '/';
  const admin = new DataSource({ type: 'mysql', url: url.toString() });
  await admin.initialize();
  try {
    await admin.query(
      `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await admin.destroy();
  }
}
