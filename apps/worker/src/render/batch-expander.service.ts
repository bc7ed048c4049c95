import { Injectable, Logger } from '@nestjs/common';
import { BatchPages } from '@app/jobs';
import { JobProducer } from '@app/queues';
import type { ExpandData } from '@app/queue-contracts';
import { JobProgress } from './job-progress.service';
import { PAGES_PER_JOB, windowFor } from './page-window';

/**
 * Turns a batch's compressed URL chunks into page rows and its first page jobs. Safe to run twice
 * (a worker killed mid-way): pages are inserted with INSERT IGNORE, page jobs have fixed ids.
 */
@Injectable()
export class BatchExpander {
  private readonly logger = new Logger(BatchExpander.name);

  constructor(
    private readonly batches: BatchPages,
    private readonly producer: JobProducer,
    private readonly progress: JobProgress,
  ) {}

  async expand({ jobId }: ExpandData): Promise<void> {
    const job = await this.batches.expand(jobId);
    if (!job) return;
    const window = windowFor(await this.progress.maxConcurrentPages(job.accountId), job.onSession);
    await this.enqueueFirstChunks(jobId, job.total, window);
    await this.batches.dropChunks(jobId);
    this.logger.log({ jobId, pages: job.total }, 'batch expanded');
  }

  /** Only a window of chunk jobs: each finished chunk queues the one a window ahead (PageRunner). */
  private async enqueueFirstChunks(jobId: string, total: number, window: number): Promise<void> {
    const jobs = [];
    for (let from = 0; from < Math.min(total, window * PAGES_PER_JOB); from += PAGES_PER_JOB) {
      jobs.push({ jobId, fromIdx: from, toIdx: Math.min(total, from + PAGES_PER_JOB) });
    }
    await this.producer.addMany('pages', jobs);
  }
}
