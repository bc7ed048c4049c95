import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PageResult } from '@app/queue-contracts';

/** A page a crawl admitted: to fetch, or (with `skipped`) reported at once as failed with its reason. */
export interface ChildPage {
  idx: number;
  url: string;
  depth: number;
  skipped?: PageResult & { error: NonNullable<PageResult['error']> };
}

/** The page rows a crawl grows by; the Redis frontier decides which, these store them. */
@Injectable()
export class CrawlPages {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every row of the crawl, for a frontier rebuilt after Redis lost it (or before its first admission). */
  rows(jobId: string): Promise<{ idx: number; url: string; error_code: string | null }[]> {
    return this.db.query('SELECT idx, url, error_code FROM job_pages WHERE job_id = ?', [jobId]);
  }

  /**
   * Rows in one transaction with the counters: pages to fetch as pending; skipped ones finished at
   * once, as failed pages with their reason (no quota, no usage). INSERT IGNORE and the counts of
   * rows actually inserted keep a retried page from counting a child twice.
   */
  async addChildren(jobId: string, children: ChildPage[]): Promise<void> {
    const toFetch = children.filter((c) => !c.skipped);
    const skipped = children.filter((c) => c.skipped);
    await this.db.transaction(async (em) => {
      let fetchRows = 0;
      let skipRows = 0;
      if (toFetch.length) {
        const res = await em.query<{ affectedRows: number }>(
          `INSERT IGNORE INTO job_pages (job_id, idx, url, depth) VALUES ${toFetch.map(() => '(?, ?, ?, ?)').join(',')}`,
          toFetch.flatMap((c) => [jobId, c.idx, c.url, c.depth]),
        );
        fetchRows = res.affectedRows;
      }
      if (skipped.length) {
        const res = await em.query<{ affectedRows: number }>(
          `INSERT IGNORE INTO job_pages (job_id, idx, url, depth, status, error_code, result, finished_at)
           VALUES ${skipped.map(() => `(?, ?, ?, ?, 'failed', ?, ?, NOW(3))`).join(',')}`,
          skipped.flatMap((c) => [
            jobId,
            c.idx,
            c.url,
            c.depth,
            c.skipped!.error.code,
            JSON.stringify(c.skipped),
          ]),
        );
        skipRows = res.affectedRows;
      }
      await em.query('UPDATE jobs SET total = total + ?, failed = failed + ? WHERE id = ?', [
        fetchRows + skipRows,
        skipRows,
        jobId,
      ]);
    });
  }
}
