import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface OpenJob {
  id: string;
  type: 'scrape' | 'batch' | 'crawl';
  account_id: string;
  status: 'queued' | 'running';
  /** Pages the job has (a batch's whole list, from acceptance). */
  total: number;
  /** URL chunks not yet expanded into pages (a batch whose expansion did not finish). */
  chunks: number;
}

/** What the reconciler reads to give jobs that have not ended their queue entries back. */
@Injectable()
export class OpenJobs {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every job not yet ended when `all`, else those still `queued` `queuedGraceS` after creation. */
  list(all: boolean, queuedGraceS: number): Promise<OpenJob[]> {
    return this.db.query(
      `SELECT j.id, j.type, j.account_id, j.status, j.total,
              (SELECT COUNT(*) FROM job_url_chunks c WHERE c.job_id = j.id) AS chunks
         FROM jobs j
        WHERE j.status = 'running' AND ?
           OR j.status = 'queued' AND (? OR j.created_at < NOW(3) - INTERVAL ? SECOND)`,
      [all, all, queuedGraceS],
    );
  }

  /** Where the first `limit` chunks of `perChunk` pages with unfinished pages start, in order. */
  async unfinishedChunkStarts(jobId: string, perChunk: number, limit: number): Promise<number[]> {
    const rows = await this.db.query<{ start: number }[]>(
      `SELECT DISTINCT idx - MOD(idx, ?) AS start FROM job_pages
        WHERE job_id = ? AND status IN ('pending', 'running') ORDER BY start LIMIT ?`,
      [perChunk, jobId, limit],
    );
    return rows.map((r) => Number(r.start));
  }

  /** Indexes of the job's pages not yet finished, in order. */
  async unfinishedPages(jobId: string): Promise<number[]> {
    const rows = await this.db.query<{ idx: number }[]>(
      `SELECT idx FROM job_pages WHERE job_id = ? AND status IN ('pending', 'running') ORDER BY idx`,
      [jobId],
    );
    return rows.map((r) => r.idx);
  }
}
