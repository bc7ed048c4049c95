import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { UsageRecorder } from '@app/auth';
import type { Job } from '@app/persistence';
import type { PageResult } from '@app/queue-contracts';
import { WebhookDeliveries } from '@app/webhooks';

interface Affected {
  affectedRows: number;
}

/**
 * Page outcomes and job counters, in MySQL. A page is stored once even when two workers render it
 * (the conditional UPDATE lets only the first count), and a job ends exactly once: the UPDATE that
 * moves it out of `running` succeeds for one caller only, whatever order pages finish in.
 */
@Injectable()
export class JobProgress {
  private readonly logger = new Logger(JobProgress.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly usage: UsageRecorder,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  /** queued -> running, stamping started_at once. */
  async markRunning(jobId: string): Promise<void> {
    await this.db.query(
      `UPDATE jobs SET status = 'running', started_at = COALESCE(started_at, NOW(3)) WHERE id = ? AND status = 'queued'`,
      [jobId],
    );
  }

  async markPageRunning(jobId: string, idx: number): Promise<void> {
    await this.db.query(
      `UPDATE job_pages SET status = 'running', attempts = LEAST(attempts + 1, 127)
        WHERE job_id = ? AND idx = ? AND status IN ('pending', 'running')`,
      [jobId, idx],
    );
  }

  async cancelled(jobId: string): Promise<boolean> {
    const [row] = await this.db.query<{ status: string }[]>('SELECT status FROM jobs WHERE id = ?', [jobId]);
    return !row || row.status === 'cancelled';
  }

  /** The plan's in-flight page limit, read per chunk so a plan change applies at once. */
  async maxConcurrentPages(accountId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }[]>(
      'SELECT p.max_concurrent_pages AS n FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = ?',
      [accountId],
    );
    return row?.n ?? 1;
  }

  /** Stores a page's result; returns false when another worker already had. */
  async finishPage(job: Pick<Job, 'id' | 'accountId' | 'environment'>, result: PageResult): Promise<boolean> {
    const jobId = job.id;
    const ok = !result.error;
    const stored = await this.db.transaction(async (em) => {
      const res = await em.query<Affected>(
        `UPDATE job_pages SET status = ?, status_code = ?, error_code = ?, render_ms = ?, result = ?, finished_at = NOW(3)
          WHERE job_id = ? AND idx = ? AND status IN ('pending', 'running')`,
        [
          ok ? 'succeeded' : 'failed',
          result.status_code,
          result.error?.code ?? null,
          result.timings.render_ms,
          JSON.stringify(result),
          jobId,
          result.index,
        ],
      );
      if (res.affectedRows !== 1) return false;
      await em.query(
        `UPDATE jobs SET ${ok ? 'completed = completed + 1' : 'failed = failed + 1'} WHERE id = ?`,
        [jobId],
      );
      return true;
    });
    // Counted only by the worker whose result was stored, so a page rendered twice counts once.
    if (stored) {
      await this.usage.record(job.accountId, job.environment, {
        succeeded: ok,
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
    const res = await this.db.query<Affected>(
      `UPDATE jobs SET status = IF(failed >= total, 'failed', 'completed'), finished_at = NOW(3)
        WHERE id = ? AND status = 'running' AND completed + failed >= total`,
      [jobId],
    );
    if (res.affectedRows !== 1) return null;
    const [row] = await this.db.query<{ status: 'completed' | 'failed' }[]>(
      'SELECT status FROM jobs WHERE id = ?',
      [jobId],
    );
    this.logger.log({ jobId, status: row.status }, 'job finished');
    // The one caller that ended the job creates its webhook delivery (a sweep covers a crash here).
    await this.deliveries.jobEnded(jobId);
    return row.status;
  }
}
