import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { PageResult } from '@app/queue-contracts';
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
  constructor(@InjectRepository(JobPage) private readonly pages: Repository<JobPage>) {}

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
   * Finished pages in index order from `from`. A page still running ends the slice, so a client
   * following `next` never skips a page that finishes later: results are stable across calls.
   */
  async pageOfResults(
    job: Job,
    from: number,
    pageSize: number,
  ): Promise<{ data: PageResult[]; next: string | null }> {
    const rows = await this.pages
      .createQueryBuilder('p')
      .select(['p.idx', 'p.status', 'p.result'])
      .where('p.job_id = :id AND p.idx >= :from', { id: job.id, from })
      .orderBy('p.idx', 'ASC')
      .limit(pageSize)
      .getMany();
    const data: PageResult[] = [];
    let nextIdx = from;
    const ended = TERMINAL_JOB_STATUSES.includes(job.status);
    for (const row of rows) {
      const finished = row.status === 'succeeded' || row.status === 'failed';
      if (!finished && !ended) break;
      if (finished && row.result) data.push(JSON.parse(row.result) as PageResult);
      nextIdx = row.idx + 1;
    }
    // A running crawl may still find pages (its idx can skip numbers, see CrawlFrontier): always more.
    const more = ended
      ? rows.length === pageSize
      : job.type === 'crawl' || nextIdx < job.total || rows.length === pageSize;
    return { data, next: more ? encodeCursor('idx', nextIdx) : null };
  }
}
