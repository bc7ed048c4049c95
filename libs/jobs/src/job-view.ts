import type { PageResult } from '@app/queue-contracts';
import type { JobStatus, JobType } from './entities';

/** A job as GET /v1/jobs/{id} answers it. */
export interface JobView {
  job_id: string;
  type: JobType;
  status: JobStatus;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string;
  total: number;
  completed: number;
  failed: number;
  result:
    | PageResult
    | { data: PageResult[]; next: string | null }
    | { error: { code: string; message: string } }
    | null;
}

/** What every job-creating endpoint answers: `{status, job_id}`. */
export interface JobAccepted {
  status: 'queued';
  job_id: string;
}
