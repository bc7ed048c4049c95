import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QuotaService, UsageRecorder } from '@app/auth';
import type { Environment, Job } from '@app/persistence';
import { UNFETCHED_PAGE_CODES, type PageResult } from '@app/queue-contracts';
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
    private readonly quota: QuotaService,
  ) {}

  /** queued -> running, stamping started_at once. */
  async markRunning(jobId: string): Promise<void> {
    await this.db.query(
      `UPDATE jobs SET status = 'running', started_at = COALESCE(started_at, NOW(3)) WHERE id = ? AND status = 'queued'`,
      [jobId],
    );
  }

  /**
   * pending/running -> running, counting the attempt. False when the page has already finished or
   * its job was cancelled: the caller does not render it. One statement, so no separate status read.
   */
  async markPageRunning(jobId: string, idx: number): Promise<boolean> {
    const res = await this.db.query<Affected>(
      `UPDATE job_pages p JOIN jobs j ON j.id = p.job_id
          SET p.status = 'running', p.attempts = LEAST(p.attempts + 1, 127)
        WHERE p.job_id = ? AND p.idx = ? AND p.status IN ('pending', 'running') AND j.status <> 'cancelled'`,
      [jobId, idx],
    );
    return res.affectedRows > 0;
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

  /**
   * Stores a page's result; returns false when another worker already had. A page reported without
   * being fetched (`fetched: false`, a crawl's start page blocked by robots.txt) counts no usage.
   */
  async finishPage(
    job: Pick<Job, 'id' | 'accountId' | 'environment'>,
    result: PageResult,
    { fetched = true } = {},
  ): Promise<boolean> {
    const jobId = job.id;
    const ok = !result.error;
    // One statement stores the page and counts it on the job row: atomic without a transaction's
    // extra round trips, and the hot job row is locked for one statement only. It changes both rows
    // or neither, so only the first worker to store the page counts it.
    const res = await this.db.query<Affected>(
      `UPDATE job_pages p JOIN jobs j ON j.id = p.job_id
          SET p.status = ?, p.status_code = ?, p.error_code = ?, p.render_ms = ?, p.result = ?,
              p.finished_at = NOW(3), ${ok ? 'j.completed = j.completed + 1' : 'j.failed = j.failed + 1'}
        WHERE p.job_id = ? AND p.idx = ? AND p.status IN ('pending', 'running')`,
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
    const stored = res.affectedRows > 0;
    // Counted only by the worker whose result was stored, so a page rendered twice counts once.
    if (stored && fetched) {
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
    const [row] = await this.db.query<EndedJob[]>(
      `SELECT status, type, account_id, environment, created_at, quota_reserved, completed, failed
         FROM jobs WHERE id = ?`,
      [jobId],
    );
    this.logger.log({ jobId, status: row.status }, 'job finished');
    if (row.type === 'crawl') await this.releaseUnfetched(jobId, row);
    // The one caller that ended the job creates its webhook delivery (a sweep covers a crash here).
    await this.deliveries.jobEnded(jobId);
    return row.status;
  }

  /**
   * DESIGN.md "Quota": a crawl reserved its limit; what it did not fetch goes back. The reservation
   * is lowered by compare-and-set first, so a second call gives back nothing.
   */
  private async releaseUnfetched(jobId: string, job: EndedJob): Promise<void> {
    const [{ n }] = await this.db.query<{ n: string }[]>(
      `SELECT COUNT(*) AS n FROM job_pages WHERE job_id = ? AND status = 'failed' AND error_code IN (?)`,
      [jobId, UNFETCHED_PAGE_CODES],
    );
    const fetched = job.completed + job.failed - Number(n);
    const unused = job.quota_reserved - fetched;
    if (unused <= 0) return;
    const res = await this.db.query<Affected>(
      'UPDATE jobs SET quota_reserved = ? WHERE id = ? AND quota_reserved = ?',
      [fetched, jobId, job.quota_reserved],
    );
    if (res.affectedRows === 1) {
      await this.quota.release(job.account_id, job.environment, unused, job.created_at);
    }
  }
}

interface EndedJob {
  status: 'completed' | 'failed';
  type: string;
  account_id: string;
  environment: Environment;
  created_at: Date;
  quota_reserved: number;
  completed: number;
  failed: number;
}
