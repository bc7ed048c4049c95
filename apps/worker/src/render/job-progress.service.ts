import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { UsageRecorder } from '@app/auth';
import { Job, JobLifecycle, PageProgress } from '@app/jobs';
import type { PageResult } from '@app/queue-contracts';
import { WebhookDeliveries } from '@app/webhooks';

/**
 * What follows a page's and a job's end beyond their rows (libs/jobs): the page's usage, counted
 * once, and the webhook of the job that ended.
 */
@Injectable()
export class JobProgress {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly pages: PageProgress,
    private readonly lifecycle: JobLifecycle,
    private readonly usage: UsageRecorder,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  /** The plan's in-flight page limit, read per chunk so a plan change applies at once. */
  async maxConcurrentPages(accountId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }[]>(
      'SELECT p.max_concurrent_pages AS n FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = ?',
      [accountId],
    );
    return row?.n ?? 1;
  }

  /**
   * Stores a page's result; returns false when another worker already had. A page reported without
   * being fetched (`fetched: false`, a crawl's start page blocked by robots.txt) counts no usage.
   */
  async finishPage(
    job: Pick<Job, 'id' | 'accountId' | 'environment'>,
    result: PageResult,
    { fetched = true } = {},
  ): Promise<boolean> {
    const stored = await this.pages.finish(job.id, result);
    // Counted only by the worker whose result was stored, so a page rendered twice counts once.
    if (stored && fetched) {
      await this.usage.record(job.accountId, job.environment, {
        succeeded: !result.error,
        renderMs: result.timings.render_ms,
      });
    }
    return stored;
  }

  /**
   * Ends the job if every page has finished. Returns the final status to the one caller that
   * ended it, null to everyone else.
   */
  async completeIfDone(jobId: string): Promise<'completed' | 'failed' | null> {
    const status = await this.lifecycle.finishIfDone(jobId);
    // The one caller that ended the job creates its webhook delivery (a sweep covers a crash here).
    if (status) await this.deliveries.jobEnded(jobId);
    return status;
  }
}
