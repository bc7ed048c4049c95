import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuotaService } from '@app/auth';
import { QuotaMonthly } from '@app/persistence';
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
];

/**
 * The job tables (jobs, job_pages, job_url_chunks) and every statement on them, as named
 * operations. Needs the importing app's TypeORM connection and SharedEnv.
 */
@Module({
  imports: [TypeOrmModule.forFeature([...JOB_ENTITIES, QuotaMonthly])],
  providers: [...OPERATIONS, QuotaGiveBack, QuotaService],
  exports: OPERATIONS,
})
export class JobStateModule {}
