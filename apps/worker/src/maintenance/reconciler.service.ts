import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { JobLifecycle, OpenJob, OpenJobs } from '@app/jobs';
import { REDIS, RedisKeys } from '@app/persistence';
import { JobProducer } from '@app/queues';
import { JobProgress } from '../render/job-progress.service';
import { PAGES_PER_JOB, windowFor } from '../render/page-window';
import { every } from './periodic';

const CHECK_EVERY_MS = 5_000;
/** A job still `queued` this long after creation lost its queue entry (or never got one). */
const QUEUED_GRACE_MS = 60_000;

/**
 * MySQL is the record; Redis may lose everything at any time (it holds only queues, leases and
 * crawl frontiers, all rebuilt from MySQL). A marker key tells
 * when it did: then every job not yet ended gets its queue entries back from its page rows (a
 * crawl's frontier too, rebuilt by CrawlFrontier when next used). Jobs
 * that stay `queued` past a grace period are re-queued too. Queue entries have fixed ids, so one
 * that still exists is not doubled.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Reconciler.name);
  private loop?: { stop: () => Promise<void> };

  constructor(
    private readonly openJobs: OpenJobs,
    private readonly lifecycle: JobLifecycle,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly producer: JobProducer,
    private readonly progress: JobProgress,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = every(CHECK_EVERY_MS, this.logger, async () => void (await this.check()));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
  }

  /** One pass: everything open if Redis lost its data, else only jobs stuck in `queued`. */
  async check(): Promise<number> {
    const marker = this.keys.key('reconciler', 'epoch');
    const redisWasReset = (await this.redis.set(marker, new Date().toISOString(), 'NX')) === 'OK';
    const jobs = await this.openJobs.list(redisWasReset, QUEUED_GRACE_MS / 1000);
    for (const job of jobs) await this.requeue(job);
    if (jobs.length) this.logger.log({ jobs: jobs.length, redisWasReset }, 're-queued open jobs from MySQL');
    return jobs.length;
  }

  private async requeue(job: OpenJob): Promise<void> {
    if (job.type === 'crawl') return this.requeueCrawl(job.id);
    if (Number(job.chunks) > 0) {
      await this.producer.add('expand', { jobId: job.id });
      return;
    }
    const window = windowFor(await this.progress.maxConcurrentPages(job.account_id));
    const starts = await this.openJobs.unfinishedChunkStarts(job.id, PAGES_PER_JOB, window);
    if (!starts.length) {
      await this.lifecycle.markRunning(job.id);
      await this.progress.completeIfDone(job.id);
      return;
    }
    await this.producer.addMany(
      'pages',
      starts.map((start) => ({
        jobId: job.id,
        fromIdx: start,
        toIdx: Math.min(job.total, start + PAGES_PER_JOB),
      })),
    );
  }

  /**
   * A crawl's unfinished pages each get their page job back (fixed ids). Its frontier is not
   * touched here: the first admission that finds it gone rebuilds it from the page rows.
   */
  private async requeueCrawl(jobId: string): Promise<void> {
    const pages = await this.openJobs.unfinishedPages(jobId);
    if (!pages.length) {
      await this.lifecycle.markRunning(jobId);
      await this.progress.completeIfDone(jobId);
      return;
    }
    await this.producer.addMany(
      'crawl-page',
      pages.map((idx) => ({ jobId, idx })),
    );
  }
}
