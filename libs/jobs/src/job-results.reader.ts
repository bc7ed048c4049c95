import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { PageResult } from '@app/queue-contracts';
import { SharedEnv } from '@app/config';
import { decodeCursor, encodeCursor } from '@app/persistence';
import { Job, JobPage, TERMINAL_JOB_STATUSES } from './entities';
import { JobView } from './job-view';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A job as callers see it, shared by GET /v1/jobs/{id} and the webhook payload so the two can
 * never disagree: the webhook's `result` is what the job endpoint returns.
 */
@Injectable()
export class JobResultsReader {
  private readonly maxBytes: number;

  constructor(
    @InjectRepository(JobPage) private readonly pages: Repository<JobPage>,
    env: SharedEnv,
  ) {
    this.maxBytes = env.RESULT_PAGE_MAX_BYTES;
  }

  view(job: Job, result: JobView['result']): JobView {
    return {
      job_id: job.id,
      type: job.type,
      status: job.status,
      created_at: job.createdAt.toISOString(),
      started_at: iso(job.startedAt),
      finished_at: iso(job.finishedAt),
      expires_at: job.expiresAt.toISOString(),
      total: job.total,
      completed: job.completed,
      failed: job.failed,
      result,
    };
  }

  async withResult(job: Job, cursor?: string, pageSize = 100): Promise<JobView> {
    return this.view(job, await this.resultOf(job, cursor, pageSize));
  }

  async resultOf(job: Job, cursor: string | undefined, pageSize: number): Promise<JobView['result']> {
    if (job.type === 'scrape') {
      const page = await this.pages.findOne({ where: { jobId: job.id, idx: 0 }, select: { result: true } });
      if (page?.result) return JSON.parse(page.result) as PageResult;
      return job.errorCode ? { error: { code: job.errorCode, message: job.errorMessage ?? '' } } : null;
    }
    return this.pageOfResults(job, cursor ? decodeCursor(cursor, 'idx') : 0, pageSize);
  }

  /**
   * Finished pages in index order from `from`: at most `pageSize` of them and, past the first,
   * RESULT_PAGE_MAX_BYTES of stored JSON, so one read holds a bounded amount whatever the pages
   * hold (a page result may be megabytes). Fewer than `pageSize` is not the end; `next: null` is.
   * A page still running ends the slice, so a client following `next` never skips a page that
   * finishes later: results are stable across calls.
   */
  async pageOfResults(
    job: Job,
    from: number,
    pageSize: number,
  ): Promise<{ data: PageResult[]; next: string | null }> {
    // Sizes first (MySQL measures them), then only the results that fit are read.
    const sized: { idx: number; status: string; bytes: string | number | null }[] = await this.pages
      .createQueryBuilder('p')
      .select(['p.idx AS idx', 'p.status AS status', 'LENGTH(p.result) AS bytes'])
      .where('p.job_id = :id AND p.idx >= :from', { id: job.id, from })
      .orderBy('p.idx', 'ASC')
      .limit(pageSize)
      .getRawMany();
    const ended = TERMINAL_JOB_STATUSES.includes(job.status);
    const taken: number[] = [];
    let nextIdx = from;
    let bytes = 0;
    let cut = false;
    for (const row of sized) {
      const finished = row.status === 'succeeded' || row.status === 'failed';
      if (!finished && !ended) break;
      if (finished && row.bytes !== null) {
        const size = Number(row.bytes);
        if (taken.length && bytes + size > this.maxBytes) {
          cut = true;
          break;
        }
        taken.push(row.idx);
        bytes += size;
      }
      nextIdx = row.idx + 1;
    }
    const data = taken.length ? await this.results(job.id, taken) : [];
    // A running crawl may still find pages (its idx can skip numbers, see CrawlFrontier): always more.
    const more =
      cut ||
      (ended
        ? sized.length === pageSize
        : job.type === 'crawl' || nextIdx < job.total || sized.length === pageSize);
    return { data, next: more ? encodeCursor('idx', nextIdx) : null };
  }

  /**
   * A job's pages that failed without an answer from their target (HTTP_4XX and HTTP_5XX pages
   * were fetched and hold content, so they are not read here), in index order, at most `limit`.
   */
  async unansweredFailures(jobId: string, limit: number): Promise<PageResult[]> {
    const rows = await this.pages
      .createQueryBuilder('p')
      .select(['p.idx', 'p.result'])
      .where("p.job_id = :jobId AND p.status = 'failed' AND p.error_code NOT IN ('HTTP_4XX', 'HTTP_5XX')", {
        jobId,
      })
      .andWhere('p.result IS NOT NULL')
      .orderBy('p.idx', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map((r) => JSON.parse(r.result!) as PageResult);
  }

  private async results(jobId: string, idxs: number[]): Promise<PageResult[]> {
    const rows = await this.pages
      .createQueryBuilder('p')
      .select(['p.idx', 'p.result'])
      .where('p.job_id = :jobId AND p.idx >= :first AND p.idx <= :last', {
        jobId,
        first: idxs[0],
        last: idxs[idxs.length - 1],
      })
      .orderBy('p.idx', 'ASC')
      .getMany();
    const wanted = new Set(idxs);
    return rows.filter((r) => wanted.has(r.idx) && r.result).map((r) => JSON.parse(r.result!) as PageResult);
  }
}
