import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QuotaGiveBack } from './quota-give-back';

interface Affected {
  affectedRows: number;
}

/** Runs of a statement InnoDB rolled back to break a deadlock. */
const DEADLOCK_TRIES = 3;

/**
 * `statement` run again when InnoDB chose it to break a deadlock (a transaction that read the row
 * and then writes it, with this one waiting between): one statement, rolled back whole, may simply
 * run again.
 */
async function againOnDeadlock<T>(statement: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await statement();
    } catch (err) {
      if ((err as { code?: string }).code !== 'ER_LOCK_DEADLOCK' || tries >= DEADLOCK_TRIES) throw err;
    }
  }
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
    const res = await againOnDeadlock(() =>
      this.db.query<Affected>(
        `UPDATE jobs SET status = 'cancelled', finished_at = ? WHERE id = ? AND status IN ('queued', 'running')`,
        [new Date(), jobId],
      ),
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
