import request from 'supertest';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@app/persistence';
import type { ApiHarness } from '../support/api-harness';

/**
 * The API running in a container (or a pod), reached over loopback, in the shape the suite's
 * helpers take (createAccount, waitForJob, expectEveryPageOnce): requests go to `origin`, the admin
 * token is the run's, and the job's rows are read through the test's own database connection.
 */
export function remoteApi(origin: string, db: DataSource): ApiHarness {
  const remote: Pick<ApiHarness, 'http' | 'admin' | 'logs' | 'close'> & { app: { get: () => DataSource } } = {
    http: () => request(origin),
    admin: (req) => req.set('Authorization', `Bearer ${process.env.ADMIN_TOKEN}`),
    // Asked only for the DataSource.
    app: { get: () => db },
    logs: [],
    close: async () => undefined,
  };
  // The helpers use nothing else of the in-process harness (no Nest app, no env object here).
  return remote as unknown as ApiHarness;
}

/** A connection to the run's database from the test process. */
export async function runDatabase(): Promise<DataSource> {
  const db = new DataSource(dataSourceOptions(process.env.DATABASE_URL!, 2));
  return db.initialize();
}
