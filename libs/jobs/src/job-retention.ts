import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Deletes of what has outlived RESULT_RETENTION_DAYS, a few jobs at a time. */
@Injectable()
export class JobRetention {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Deletes up to `limit` jobs past expires_at with their pages and chunks; returns how many. */
  async deleteExpired(now: Date, limit: number): Promise<number> {
    const ids = (
      await this.db.query<{ id: string }[]>('SELECT id FROM jobs WHERE expires_at < ? LIMIT ?', [now, limit])
    ).map((r) => r.id);
    if (!ids.length) return 0;
    await this.db.transaction(async (em) => {
      await em.query('DELETE FROM job_pages WHERE job_id IN (?)', [ids]);
      await em.query('DELETE FROM job_url_chunks WHERE job_id IN (?)', [ids]);
      await em.query('DELETE FROM jobs WHERE id IN (?)', [ids]);
    });
    return ids.length;
  }

  /**
   * Up to `limit` webhook deliveries matching `where` (on `d`, with `params`) whose job has expired
   * before `now` or is gone: an unexpired job's delivery would only be created again by the sweep.
   */
  async deliveriesOfExpiredJobs(
    where: string,
    params: unknown[],
    now: Date,
    limit: number,
  ): Promise<string[]> {
    const rows = await this.db.query<{ id: string }[]>(
      `SELECT d.id FROM webhook_deliveries d LEFT JOIN jobs j ON j.id = d.job_id
        WHERE ${where} AND (j.id IS NULL OR j.expires_at < ?) LIMIT ?`,
      [...params, now, limit],
    );
    return rows.map((r) => r.id);
  }
}
