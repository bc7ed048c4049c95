import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuotaService } from '@app/auth';
import { QuotaMonthly, secretBoxProvider } from '@app/persistence';
import { BatchPages } from './batch-pages';
import { CrawlPages } from './crawl-pages';
import { JOB_ENTITIES } from './entities';
import { JobIntake } from './job-intake';
import { JobLifecycle } from './job-lifecycle';
import { JobQueries } from './job-queries';
import { JobResultsReader } from './job-results.reader';
import { JobRetention } from './job-retention';
import { OpenJobs } from './open-jobs';
import { PageProgress } from './page-progress';
import { QuotaGiveBack } from './quota-give-back';
import { SealedHeaders } from './sealed-headers';

const OPERATIONS = [
  JobIntake,
  JobQueries,
  JobResultsReader,
  JobLifecycle,
  PageProgress,
  BatchPages,
  CrawlPages,
  OpenJobs,
  JobRetention,
  SealedHeaders,
];

/**
 * The job tables (jobs, job_pages, job_url_chunks) and every statement on them, as named
 * operations, and the sealing of the caller's headers. Needs the importing app's TypeORM
 * connection and SharedEnv.
 */
@Module({
  imports: [TypeOrmModule.forFeature([...JOB_ENTITIES, QuotaMonthly])],
  providers: [...OPERATIONS, QuotaGiveBack, QuotaService, secretBoxProvider],
  exports: OPERATIONS,
})
export class JobStateModule {}
