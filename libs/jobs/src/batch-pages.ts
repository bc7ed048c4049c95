import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TERMINAL_JOB_STATUSES } from './entities';
import { onSessionSql } from './on-session';
import { decompressChunk } from './url-chunks';

const ROWS_PER_INSERT = 2_000;

interface ChunkHead {
  chunk_no: number;
  first_index: number;
  url_count: number;
}

/**
 * A batch's compressed URL chunks turned into its page rows. Safe to run twice (a worker killed
 * mid-way): a chunk whose rows are all there is skipped, and rows are inserted with INSERT IGNORE.
 */
@Injectable()
export class BatchPages {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Writes the page rows of every chunk; null (and nothing written) when the job is gone or has ended. */
  async expand(jobId: string): Promise<{ total: number; accountId: string; onSession: boolean } | null> {
    const [job] = await this.db.query<
      { status: string; total: number; account_id: string; on_session: number }[]
    >(`SELECT status, total, account_id, ${onSessionSql()} AS on_session FROM jobs WHERE id = ?`, [jobId]);
    if (!job || TERMINAL_JOB_STATUSES.includes(job.status as never)) return null;
    const heads = await this.db.query<ChunkHead[]>(
      'SELECT chunk_no, first_index, url_count FROM job_url_chunks WHERE job_id = ? ORDER BY chunk_no',
      [jobId],
    );
    for (const head of heads) await this.insertPages(jobId, head);
    return { total: job.total, accountId: job.account_id, onSession: Number(job.on_session) === 1 };
  }

  /** The pages are the record once their first chunk jobs are queued; the compressed list has done its job. */
  async dropChunks(jobId: string): Promise<void> {
    await this.db.query('DELETE FROM job_url_chunks WHERE job_id = ?', [jobId]);
  }

  private async insertPages(jobId: string, head: ChunkHead): Promise<void> {
    const [row] = await this.db.query<{ n: string }[]>(
      'SELECT COUNT(*) AS n FROM job_pages WHERE job_id = ? AND idx >= ? AND idx < ?',
      [jobId, head.first_index, head.first_index + head.url_count],
    );
    if (Number(row.n) === head.url_count) return;
    const [chunk] = await this.db.query<{ data: Buffer }[]>(
      'SELECT data FROM job_url_chunks WHERE job_id = ? AND chunk_no = ?',
      [jobId, head.chunk_no],
    );
    const urls = await decompressChunk(chunk.data);
    for (let i = 0; i < urls.length; i += ROWS_PER_INSERT) {
      const slice = urls.slice(i, i + ROWS_PER_INSERT);
      const values = slice.map(() => '(?, ?, ?)').join(',');
      const params = slice.flatMap((url, j) => [jobId, head.first_index + i + j, url]);
      await this.db.query(`INSERT IGNORE INTO job_pages (job_id, idx, url) VALUES ${values}`, params);
    }
  }
}
