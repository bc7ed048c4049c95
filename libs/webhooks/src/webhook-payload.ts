import { Injectable } from '@nestjs/common';
import { SharedEnv } from '@app/config';
import { Job, JobResultsReader, JobStatus, JobView } from '@app/jobs';
import { decodeCursor, encodeCursor } from '@app/persistence';
import type { PageResult } from '@app/queue-contracts';

/** Rows read per query while filling `data`. */
const PAGES_PER_READ = 100;

export interface ListedResult {
  data: PageResult[];
  next: string | null;
  /** A failed batch or crawl says why, beside whatever pages it has. */
  error?: { code: string; message: string };
}

/** The webhook body: `{job_id, status, result}`, plus counters for a batch or crawl. */
export interface WebhookPayload {
  job_id: string;
  status: JobStatus;
  result: JobView['result'] | ListedResult;
  total?: number;
  completed?: number;
  failed?: number;
}

/**
 * Builds a finished job's webhook body from what GET /v1/jobs/{id} returns as `result`
 * (JobResultsReader), so the two never disagree. A batch's or crawl's page results are inline up
 * to WEBHOOK_INLINE_MAX_BYTES of `data`; the rest is behind `next`, a cursor for
 * GET /v1/jobs/{id}?cursor=.
 */
@Injectable()
export class WebhookPayloads {
  private readonly inlineMaxBytes: number;

  constructor(
    private readonly results: JobResultsReader,
    env: SharedEnv,
  ) {
    this.inlineMaxBytes = env.WEBHOOK_INLINE_MAX_BYTES;
  }

  async build(job: Job): Promise<WebhookPayload> {
    // A scrape's result is its one page result (a failed page carries `error`), sent whole.
    if (job.type === 'scrape') {
      return { job_id: job.id, status: job.status, result: await this.results.resultOf(job, undefined, 1) };
    }
    const listed: ListedResult = await this.inline(job);
    const result = job.status === 'failed' ? { error: jobError(job), ...listed } : listed;
    return {
      job_id: job.id,
      status: job.status,
      result,
      total: job.total,
      completed: job.completed,
      failed: job.failed,
    };
  }

  /** Page results in index order while their JSON fits the inline budget; `next` where it stops. */
  private async inline(job: Job): Promise<{ data: PageResult[]; next: string | null }> {
    const data: PageResult[] = [];
    let bytes = 2; // the array's brackets
    let from = 0;
    for (;;) {
      const page = await this.results.pageOfResults(job, from, PAGES_PER_READ);
      for (const item of page.data) {
        const size = Buffer.byteLength(JSON.stringify(item)) + (data.length ? 1 : 0);
        if (bytes + size > this.inlineMaxBytes) return { data, next: encodeCursor('idx', item.index) };
        data.push(item);
        bytes += size;
      }
      if (!page.next) return { data, next: null };
      from = decodeCursor(page.next, 'idx');
    }
  }
}

/** A batch or crawl fails with a job-level error, or (without one) because every page failed. */
function jobError(job: Job): { code: string; message: string } {
  return job.errorCode
    ? { code: job.errorCode, message: job.errorMessage ?? '' }
    : { code: 'ALL_PAGES_FAILED', message: 'every page failed; each page result in data says why' };
}
