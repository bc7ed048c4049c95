import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QuotaService } from '@app/auth';
import type { Environment } from '@app/persistence';
import { UNFETCHED_PAGE_CODES } from '@app/queue-contracts';

interface Reservation {
  account_id: string;
  environment: Environment;
  created_at: Date;
  quota_reserved: number;
  used: string;
}

/**
 * A job reserved pages of the month's quota when it was accepted (a batch its URLs, a crawl its
 * limit); what it did not use goes back once it ends. Used: every page finished, less those a
 * crawl reported without fetching (they never cost anything), plus, for a cancel, the pages still
 * running (they finish and count). The reservation is lowered by compare-and-set before the quota
 * row is touched, so a second call for the same job gives back nothing.
 */
@Injectable()
export class QuotaGiveBack {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly quota: QuotaService,
  ) {}

  async giveBack(jobId: string, { holdRunning }: { holdRunning: boolean }): Promise<void> {
    const [job] = await this.db.query<Reservation[]>(
      `SELECT j.account_id, j.environment, j.created_at, j.quota_reserved,
              j.completed + j.failed -
              (SELECT COUNT(*) FROM job_pages p
                WHERE p.job_id = j.id AND p.status = 'failed' AND p.error_code IN (?)) +
              IF(?, (SELECT COUNT(*) FROM job_pages p WHERE p.job_id = j.id AND p.status = 'running'), 0)
                AS used
         FROM jobs j WHERE j.id = ?`,
      [UNFETCHED_PAGE_CODES, holdRunning, jobId],
    );
    if (!job) return;
    const used = Number(job.used);
    const unused = job.quota_reserved - used;
    if (unused <= 0) return;
    const res = await this.db.query<{ affectedRows: number }>(
      'UPDATE jobs SET quota_reserved = ? WHERE id = ? AND quota_reserved = ?',
      [used, jobId, job.quota_reserved],
    );
    if (res.affectedRows === 1) {
      await this.quota.release(job.account_id, job.environment, unused, job.created_at);
    }
  }
}
