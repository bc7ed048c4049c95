import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QuotaGiveBack } from './quota-give-back';

interface Affected {
  affectedRows: number;
}

/**
 * A job's own state: queued -> running -> completed or failed, or cancelled from either. Each move
 * is one conditional UPDATE, so it happens once whatever the number of workers racing; whoever
 * made it gets to do what follows (the quota give-back, the webhook).
 */
@Injectable()
export class JobLifecycle {
  private readonly logger = new Logger(JobLifecycle.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly quota: QuotaGiveBack,
  ) {}

  /** queued -> running, stamping started_at once. */
  async markRunning(jobId: string): Promise<void> {
    await this.db.query(
      `UPDATE jobs SET status = 'running', started_at = COALESCE(started_at, NOW(3)) WHERE id = ? AND status = 'queued'`,
      [jobId],
    );
  }

  /**
   * Ends the job if every page has finished. Returns the final status to the one caller that
   * ended it (a crawl's unused reservation is back in the quota by then), null to everyone else.
   */
  async finishIfDone(jobId: string): Promise<'completed' | 'failed' | null> {
    const res = await this.db.query<Affected>(
      `UPDATE jobs SET status = IF(failed >= total, 'failed', 'completed'), finished_at = NOW(3)
        WHERE id = ? AND status = 'running' AND completed + failed >= total`,
      [jobId],
    );
    if (res.affectedRows !== 1) return null;
    const [row] = await this.db.query<{ status: 'completed' | 'failed'; type: string }[]>(
      'SELECT status, type FROM jobs WHERE id = ?',
      [jobId],
    );
    this.logger.log({ jobId, status: row.status }, 'job finished');
    // A batch or scrape fetches every page it reserved; a crawl reserved its limit.
    if (row.type === 'crawl') await this.quota.giveBack(jobId, { holdRunning: false });
    return row.status;
  }

  /**
   * Cancels a job that has not ended: no page starts after this (markPageRunning refuses them),
   * pages already running finish and count, and the rest of the reservation goes back. True for
   * the one call that cancelled it.
   */
  async cancel(jobId: string): Promise<boolean> {
    const res = await this.db.query<Affected>(
      `UPDATE jobs SET status = 'cancelled', finished_at = ? WHERE id = ? AND status IN ('queued', 'running')`,
      [new Date(), jobId],
    );
    if (res.affectedRows !== 1) return false;
    await this.quota.giveBack(jobId, { holdRunning: true });
    return true;
  }

  /** True when the job is gone or cancelled: a page refused its running mark stops its run. */
  async cancelled(jobId: string): Promise<boolean> {
    const [row] = await this.db.query<{ status: string }[]>('SELECT status FROM jobs WHERE id = ?', [jobId]);
    return !row || row.status === 'cancelled';
  }
}
