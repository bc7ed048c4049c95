import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { onSessionSql } from './on-session';

export interface OpenJob {
  id: string;
  type: 'scrape' | 'batch' | 'crawl';
  account_id: string;
  status: 'queued' | 'running';
  /** Pages the job has (a batch's whole list, from acceptance). */
  total: number;
  /** URL chunks not yet expanded into pages (a batch whose expansion did not finish). */
  chunks: number;
  /** Pages finished (succeeded or failed): what tells a job that moves from one that does not. */
  done: number;
  /** Its pages are on a session (`session_id`), so they go one at a time. */
  on_session: boolean;
}

/** What the reconciler reads to give jobs that have not ended their queue entries back. */
@Injectable()
export class OpenJobs {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every job not yet ended when `all`, else those still `queued` `queuedGraceS` after creation. */
  list(all: boolean, queuedGraceS: number): Promise<OpenJob[]> {
    return this.select(
      `j.status = 'running' AND ? OR j.status = 'queued' AND (? OR j.created_at < NOW(3) - INTERVAL ? SECOND)`,
      [all, all, queuedGraceS],
    );
  }

  /** Every running job, with how many of its pages have finished. */
  running(): Promise<OpenJob[]> {
    return this.select(`j.status = 'running'`, []);
  }

  private async select(where: string, params: unknown[]): Promise<OpenJob[]> {
    const rows = await this.db.query<OpenJob[]>(
      `SELECT j.id, j.type, j.account_id, j.status, j.total, j.completed + j.failed AS done,
              ${onSessionSql('j')} AS on_session,
              (SELECT COUNT(*) FROM job_url_chunks c WHERE c.job_id = j.id) AS chunks
         FROM jobs j
        WHERE ${where}`,
      params,
    );
    // mysql2 reads COUNT(*) and sums as strings.
    return rows.map((row) => ({
      ...row,
      chunks: Number(row.chunks),
      done: Number(row.done),
      on_session: Number(row.on_session) === 1,
    }));
  }

  /**
   * Where to restart a batch's chains of chunks. A finished chunk queues the one `chains` chunks
   * ahead, so the chunks form `chains` chains (chunk number mod `chains`); each chain restarts at
   * its first chunk with unfinished pages. Not the first `chains` unfinished chunks: a chunk that
   * finished just before Redis lost its data never queued its successor, so its chain would be
   * cut off behind it.
   */
  async chainRestarts(jobId: string, perChunk: number, chains: number): Promise<number[]> {
    const rows = await this.db.query<{ start: number }[]>(
      `SELECT MIN(idx - MOD(idx, ?)) AS start FROM job_pages
        WHERE job_id = ? AND status IN ('pending', 'running')
        GROUP BY MOD(FLOOR(idx / ?), ?) ORDER BY start`,
      [perChunk, jobId, perChunk, chains],
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
