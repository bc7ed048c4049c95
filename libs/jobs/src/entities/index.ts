import { Job } from './job.entity';
import { JobPage } from './job-page.entity';
import { JobUrlChunk } from './job-url-chunk.entity';

export { Job, JOB_STATUSES, TERMINAL_JOB_STATUSES } from './job.entity';
export type { JobType, JobStatus } from './job.entity';
export { JobPage, PAGE_STATUSES } from './job-page.entity';
export type { PageStatus } from './job-page.entity';
export { JobUrlChunk } from './job-url-chunk.entity';

/** The entities of the tables this library owns, for a DataSource built outside the apps' modules. */
export const JOB_ENTITIES = [Job, JobPage, JobUrlChunk];
