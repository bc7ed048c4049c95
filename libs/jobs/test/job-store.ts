import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { QuotaService } from '@app/auth';
import type { SharedEnv } from '@app/config';
import { QuotaMonthly, SecretBox, dataSourceOptions } from '@app/persistence';
import { JOB_ENTITIES, Job } from '../src/entities';
import { JobIntake } from '../src/job-intake';
import { SealedHeaders } from '../src/sealed-headers';

export interface JobStore {
  db: DataSource;
  quota: QuotaService;
  intake: JobIntake;
}

/** The jobs tables on the test database (DATABASE_URL), with the intake that fills them. */
export async function openJobStore(poolSize = 2): Promise<JobStore> {
  const db = new DataSource(dataSourceOptions(process.env.DATABASE_URL!, poolSize, JOB_ENTITIES));
  await db.initialize();
  const quota = new QuotaService(db.getRepository(QuotaMonthly));
  const intake = new JobIntake(
    db,
    db.getRepository(Job),
    { RESULT_RETENTION_DAYS: 7 } as SharedEnv,
    quota,
    new SealedHeaders(new SecretBox(randomBytes(32).toString('hex'))),
  );
  return { db, quota, intake };
}
