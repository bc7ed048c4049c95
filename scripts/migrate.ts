// `npm run migrate`: applies pending migrations once, under a database lock (safe with replicas).
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ConfigError, loadDatabaseEnv } from '@app/config';
import { createLogger, explainStartupFailure } from '@app/common';
import { dataSourceOptions, ensureDatabase, runMigrationsLocked } from '@app/persistence';

export async function migrate(databaseUrl: string): Promise<string[]> {
  await ensureDatabase(databaseUrl);
  const ds = new DataSource(dataSourceOptions(databaseUrl, 2));
  await ds.initialize();
  try {
    return await runMigrationsLocked(ds);
  } finally {
    await ds.destroy();
  }
}

if (require.main === module) {
  const run = async () => {
    const env = loadDatabaseEnv();
    const log = createLogger(env.LOG_LEVEL);
    const applied = await migrate(env.DATABASE_URL);
    log.info(
      { applied },
      applied.length ? `applied ${applied.length} migration(s)` : 'no pending migrations',
    );
  };
  run().catch((err: unknown) => {
    process.stderr.write(`${err instanceof ConfigError ? err.message : explainStartupFailure(err)}\n`);
    process.exit(1);
  });
}
