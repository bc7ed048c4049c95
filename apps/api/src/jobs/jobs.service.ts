import { Injectable, Logger } from '@nestjs/common';
import { NotFoundError } from '@app/common';
import type { AuthContext } from '@app/auth';
import type { PageResult } from '@app/queue-contracts';
import {
  Accepted,
  Idempotency,
  Job,
  JobIntake,
  JobLifecycle,
  JobQueries,
  JobResultsReader,
  JobStatus,
  JobType,
  JobView,
  NewJob,
  TERMINAL_JOB_STATUSES,
} from '@app/jobs';
import { WebhookDeliveries } from '@app/webhooks';
import { OwnerScope, ownerFields } from '../common/owner-scope';

/** The job endpoints' side of the API: what a caller may see and do to its jobs (libs/jobs does the SQL). */
@Injectable()
export class JobsService {
  private readonly logger = new Logger(JobsService.name);

  constructor(
    private readonly intake: JobIntake,
    private readonly queries: JobQueries,
    private readonly results: JobResultsReader,
    private readonly lifecycle: JobLifecycle,
    private readonly webhooks: WebhookDeliveries,
  ) {}

  /** Stores a new job (see JobIntake: quota, idempotency, rows in one transaction). */
  accept(auth: AuthContext, job: NewJob, idem: Idempotency): Promise<Accepted> {
    return this.intake.accept(auth, job, idem);
  }

  async get(
    scope: OwnerScope,
    id: string,
    cursor?: string,
    pageSize = 100,
    withOwner = false,
  ): Promise<JobView> {
    const job = await this.owned(scope, id);
    const view = await this.results.withResult(job, cursor, pageSize);
    return withOwner ? { ...view, ...ownerFields(job) } : view;
  }

  /** A job and up to `limit` of its pages that failed without an answer from their target. */
  async failures(
    scope: OwnerScope,
    id: string,
    limit: number,
  ): Promise<{ view: JobView; pages: PageResult[] }> {
    const job = await this.owned(scope, id);
    return {
      view: this.results.view(job, null),
      pages: await this.results.unansweredFailures(job.id, limit),
    };
  }

  /** Newest first; `withOwner` adds account_id and environment to each item (admins list across accounts). */
  async list(
    scope: OwnerScope,
    filter: { status?: JobStatus; type?: JobType; cursor?: string; limit: number },
    withOwner = false,
  ): Promise<{ data: Omit<JobView, 'result'>[]; next: string | null }> {
    const { jobs, next } = await this.queries.list(scope, filter);
    const data = jobs.map((j) => {
      const { result: _result, ...rest } = this.results.view(j, null);
      return withOwner ? { ...rest, ...ownerFields(j) } : rest;
    });
    return { data, next };
  }

  /**
   * Cancels a job that has not ended: no new page starts, pages already running finish, and the
   * reservation beyond the pages fetched or running goes back to the month's quota (for a crawl,
   * the rest of its limit too; URLs it reported without fetching never used any).
   */
  async cancel(scope: OwnerScope, id: string, withOwner = false): Promise<JobView> {
    const job = await this.owned(scope, id);
    if (!TERMINAL_JOB_STATUSES.includes(job.status) && (await this.lifecycle.cancel(job.id))) {
      // A cancelled job ends here, so its webhook goes now; the worker's sweep covers a failure.
      if (job.webhookUrl) {
        await this.webhooks
          .jobEnded(job.id)
          .catch((err: unknown) =>
            this.logger.warn({ err, jobId: job.id }, 'webhook delivery left to the sweep'),
          );
      }
    }
    return this.get(scope, id, undefined, 100, withOwner);
  }

  private async owned(scope: OwnerScope, id: string): Promise<Job> {
    const job = await this.queries.findOwned(scope, id);
    if (!job) throw new NotFoundError('Job not found');
    return job;
  }
}
