import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JobLifecycle } from '@app/jobs';
import { WebhookDeliveries } from '@app/webhooks';

/** A job's side of running its pages: the plan's window of pages in flight, and the job's end. */
@Injectable()
export class JobProgress {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly lifecycle: JobLifecycle,
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
