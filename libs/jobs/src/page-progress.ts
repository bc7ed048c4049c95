import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { executePrepared } from '@app/persistence';
import type { PageResult } from '@app/queue-contracts';

interface Affected {
  affectedRows: number;
}

/** A page row as a crawl reads it before fetching it. */
export interface PageRow {
  url: string;
  depth: number;
  status: string;
  attempts: number;
}

/**
 * A page's own state: pending -> running -> succeeded or failed. A page is stored once even when
 * two workers render it (the conditional UPDATE lets only the first count), and a page of a
 * cancelled job never starts.
 */
@Injectable()
export class PageProgress {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The pages of [fromIdx, toIdx) still to render, in index order, with the tries they have had. */
  unfinished(
    jobId: string,
    fromIdx: number,
    toIdx: number,
  ): Promise<{ idx: number; url: string; attempts: number }[]> {
    return this.db.query(
      `SELECT idx, url, attempts FROM job_pages
        WHERE job_id = ? AND idx >= ? AND idx < ? AND status IN ('pending', 'running') ORDER BY idx`,
      [jobId, fromIdx, toIdx],
    );
  }

  async page(jobId: string, idx: number): Promise<PageRow | undefined> {
    const [page] = await this.db.query<PageRow[]>(
      'SELECT url, depth, status, attempts FROM job_pages WHERE job_id = ? AND idx = ?',
      [jobId, idx],
    );
    return page;
  }

  /**
   * pending/running -> running, counting the attempt. False when the page has already finished or
   * its job was cancelled: the caller does not render it. One statement, so no separate status read.
   */
  async markRunning(jobId: string, idx: number): Promise<boolean> {
    const res = await this.db.query<Affected>(
      `UPDATE job_pages p JOIN jobs j ON j.id = p.job_id
          SET p.status = 'running', p.attempts = LEAST(p.attempts + 1, 127)
        WHERE p.job_id = ? AND p.idx = ? AND p.status IN ('pending', 'running') AND j.status <> 'cancelled'`,
      [jobId, idx],
    );
    return res.affectedRows > 0;
  }

  /**
   * Stores a page's result and counts it on its job: the result as stored (see storable), or null
   * when another worker already had.
   */
  async finish(jobId: string, rendered: PageResult): Promise<PageResult | null> {
    const { result, json } = storable(rendered);
    const ok = !result.error;
    // One statement stores the page and counts it on the job row: atomic without a transaction's
    // extra round trips, and the hot job row is locked for one statement only. It changes both rows
    // or neither, so only the first worker to store the page counts it. Prepared: the result is not
    // escaped into SQL text on the worker's main loop.
    const res = await executePrepared(
      this.db,
      `UPDATE job_pages p JOIN jobs j ON j.id = p.job_id
          SET p.status = ?, p.status_code = ?, p.error_code = ?, p.render_ms = ?, p.result = ?,
              p.finished_at = NOW(3), ${ok ? 'j.completed = j.completed + 1' : 'j.failed = j.failed + 1'}
        WHERE p.job_id = ? AND p.idx = ? AND p.status IN ('pending', 'running')`,
      [
        ok ? 'succeeded' : 'failed',
        result.status_code ?? null,
        result.error?.code ?? null,
        result.timings.render_ms,
        json,
        jobId,
        result.index,
      ],
    );
    return res.affectedRows > 0 ? result : null;
  }
}

/**
 * Most bytes of a page result as stored: the statement that stores it must fit one MySQL packet
 * (`max_allowed_packet`, 16 MiB by default; a larger one fails, so the page could never be stored
 * and its job never end). A 10 MB page asked for in every format comes to about 35 MB.
 */
export const MAX_STORED_RESULT_BYTES = 15 * 1024 * 1024;

/** The result and its JSON, or a TOO_LARGE failure without its content when the JSON is over the cap. */
export function storable(result: PageResult): { result: PageResult; json: string } {
  const json = JSON.stringify(result);
  const bytes = Buffer.byteLength(json);
  if (bytes <= MAX_STORED_RESULT_BYTES) return { result, json };
  // The actions' screenshots and snapshots go too: they can make up most of the size.
  const {
    markdown: _m,
    html: _h,
    raw_html: _r,
    text: _t,
    links: _l,
    screenshot: _s,
    actions: _a,
    ...rest
  } = result;
  const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
  const failed: PageResult = {
    ...rest,
    error: {
      code: 'TOO_LARGE',
      message: `the page's result in the formats asked for is ${mib(bytes)} MiB, over the ${mib(MAX_STORED_RESULT_BYTES)} MiB a stored result may take: ask for fewer formats or action results`,
    },
  };
  return { result: failed, json: JSON.stringify(failed) };
}
