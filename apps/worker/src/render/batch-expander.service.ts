import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { DataSource } from 'typeorm';
import { TERMINAL_JOB_STATUSES } from '@app/persistence';
import { JobProducer } from '@app/queues';
import type { ExpandData } from '@app/queue-contracts';
import { JobProgress } from './job-progress.service';
import { PAGES_PER_JOB, windowFor } from './page-window';

const gunzipAsync = promisify(gunzip);

const ROWS_PER_INSERT = 2_000;

interface ChunkHead {
  chunk_no: number;
  first_index: number;
  url_count: number;
}

/**
 * Turns a batch's compressed URL chunks into page rows and its first page jobs. Safe to run twice
 * (a worker killed mid-way): pages are inserted with INSERT IGNORE, page jobs have fixed ids.
 */
@Injectable()
export class BatchExpander {
  private readonly logger = new Logger(BatchExpander.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly producer: JobProducer,
    private readonly progress: JobProgress,
  ) {}

  async expand({ jobId }: ExpandData): Promise<void> {
    const [job] = await this.db.query<{ status: string; total: number; account_id: string }[]>(
      'SELECT status, total, account_id FROM jobs WHERE id = ?',
      [jobId],
    );
    if (!job || TERMINAL_JOB_STATUSES.includes(job.status as never)) return;
    const heads = await this.db.query<ChunkHead[]>(
      'SELECT chunk_no, first_index, url_count FROM job_url_chunks WHERE job_id = ? ORDER BY chunk_no',
      [jobId],
    );
    for (const head of heads) await this.insertPages(jobId, head);
    const window = windowFor(await this.progress.maxConcurrentPages(job.account_id));
    await this.enqueueFirstChunks(jobId, job.total, window);
    // The pages are the record now; the compressed list has done its job.
    await this.db.query('DELETE FROM job_url_chunks WHERE job_id = ?', [jobId]);
    this.logger.log({ jobId, pages: job.total }, 'batch expanded');
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
    const urls = JSON.parse((await gunzipAsync(chunk.data)).toString()) as string[];
    for (let i = 0; i < urls.length; i += ROWS_PER_INSERT) {
      const slice = urls.slice(i, i + ROWS_PER_INSERT);
      const values = slice.map(() => '(?, ?, ?)').join(',');
      const params = slice.flatMap((url, j) => [jobId, head.first_index + i + j, url]);
      await this.db.query(`INSERT IGNORE INTO job_pages (job_id, idx, url) VALUES ${values}`, params);
    }
  }

  /** Only a window of chunk jobs: each finished chunk queues the one a window ahead (PageRunner). */
  private async enqueueFirstChunks(jobId: string, total: number, window: number): Promise<void> {
    const jobs = [];
    for (let from = 0; from < Math.min(total, window * PAGES_PER_JOB); from += PAGES_PER_JOB) {
      jobs.push({
        data: { jobId, fromIdx: from, toIdx: Math.min(total, from + PAGES_PER_JOB) },
        options: { jobId: `${jobId}:${from}` },
      });
    }
    await this.producer.addMany('pages', jobs);
  }
}
