import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { WorkerEnv } from '@app/config';
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
 * A running job that has finished no page for this long is looked for in its queue: if the queue
 * holds none of its work, the work was lost (a chain of chunks cut, a run that Redis forgot ending
 * short) and gets its entries back now, not after RECONCILER_STALL_S. One look is enough (a run
 * queues what follows it before its own queue job ends); the wait only spares Redis the look for
 * jobs that are making progress.
 */
const QUIET_MS = 2 * CHECK_EVERY_MS;

/**
 * MySQL is the record; Redis may lose everything at any time (it holds only queues, leases and
 * crawl frontiers, all rebuilt from MySQL). A marker key tells when it did: then every job not yet
 * ended gets its queue entries back from its page rows (a crawl's frontier too, rebuilt by
 * CrawlFrontier when next used). Jobs that stay `queued` past a grace period are re-queued too.
 * Queue entries have fixed ids, so one still queued or running is not doubled; one that ended, that
 * Bull left hollow when Redis lost it under a worker, or that no list holds any more, is replaced
 * (JobProducer.restore). A running job gets the same when its queue holds none of its work (found
 * within QUIET_MS of its last page), or when it has finished no page for RECONCILER_STALL_S
 * whatever its queue holds. A job whose entries cannot be given back does not hold up the rest.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Reconciler.name);
  private loop?: { stop: () => Promise<void> };
  /** Each running job's finished pages when last seen to change, and when (this process's view). */
  private progressSeen = new Map<string, { done: number; at: number }>();

  constructor(
    private readonly openJobs: OpenJobs,
    private readonly lifecycle: JobLifecycle,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly producer: JobProducer,
    private readonly progress: JobProgress,
    private readonly env: WorkerEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = every(CHECK_EVERY_MS, this.logger, async () => void (await this.check()));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
  }

  /** One pass: everything open if Redis lost its data, else jobs stuck in `queued` and stalled ones. */
  async check(): Promise<number> {
    const marker = this.keys.key('reconciler', 'epoch');
    const redisWasReset = (await this.redis.set(marker, new Date().toISOString(), 'NX')) === 'OK';
    let jobs: OpenJob[];
    let failed: OpenJob[];
    try {
      jobs = await this.openJobs.list(redisWasReset, QUEUED_GRACE_MS / 1000);
      if (!redisWasReset) jobs.push(...(await this.stalled()));
      failed = await this.requeueEach(jobs);
    } catch (err) {
      // A pass cut short (Redis or MySQL still coming back) is done again whole at the next check.
      if (redisWasReset) await this.redis.del(marker);
      throw err;
    }
    // Done again at the next check: the whole pass after a reset, else the jobs that failed.
    if (failed.length && redisWasReset) await this.redis.del(marker);
    for (const job of failed) this.progressSeen.set(job.id, { done: job.done, at: 0 });
    if (jobs.length) this.logger.log({ jobs: jobs.length, redisWasReset }, 're-queued open jobs from MySQL');
    return jobs.length - failed.length;
  }

  /** Re-queues each job; one that fails does not keep the rest waiting. Returns those that failed. */
  private async requeueEach(jobs: OpenJob[]): Promise<OpenJob[]> {
    const failed: OpenJob[] = [];
    let firstError: unknown;
    for (const job of jobs) {
      try {
        await this.requeue(job);
      } catch (err) {
        failed.push(job);
        firstError ??= err;
      }
    }
    if (failed.length) {
      const ids = failed.slice(0, 10).map((job) => job.id);
      this.logger.warn({ failed: failed.length, jobs: ids, err: firstError }, 'could not re-queue open jobs');
    }
    return failed;
  }

  /**
   * Running jobs that have lost their work (quiet for QUIET_MS and none of it queued) or that have
   * finished no page for RECONCILER_STALL_S; each is reported once a period.
   */
  private async stalled(): Promise<OpenJob[]> {
    const now = Date.now();
    const stallMs = this.env.RECONCILER_STALL_S * 1000;
    const seen = new Map<string, { done: number; at: number }>();
    const stalled: OpenJob[] = [];
    const quiet: OpenJob[] = [];
    for (const job of await this.openJobs.running()) {
      const last = this.progressSeen.get(job.id);
      if (last?.done === job.done && now - last.at < stallMs) {
        seen.set(job.id, last);
        if (now - last.at >= QUIET_MS) quiet.push(job);
        continue;
      }
      if (last?.done === job.done) stalled.push(job);
      seen.set(job.id, { done: job.done, at: now });
    }
    // Jobs that ended since are forgotten.
    this.progressSeen = seen;
    const lost = await this.withoutWork(quiet);
    for (const job of lost) seen.set(job.id, { done: job.done, at: now });
    return [...stalled, ...lost];
  }

  /** Of these jobs, those whose queue (a crawl's, else the render queue) holds none of their work. */
  private async withoutWork(jobs: OpenJob[]): Promise<OpenJob[]> {
    const lost: OpenJob[] = [];
    for (const queue of ['crawl', 'render'] as const) {
      const mine = jobs.filter((job) => (job.type === 'crawl' ? 'crawl' : 'render') === queue);
      const ids = mine.map((job) => job.id);
      const queued = await this.producer.withWork(queue, ids);
      lost.push(...mine.filter((job) => !queued.has(job.id)));
    }
    return lost;
  }

  private async requeue(job: OpenJob): Promise<void> {
    if (job.type === 'crawl') return this.requeueCrawl(job.id);
    if (job.chunks > 0) {
      await this.producer.restore('expand', [{ jobId: job.id }]);
      return;
    }
    const window = windowFor(await this.progress.maxConcurrentPages(job.account_id), job.on_session);
    const starts = await this.openJobs.chainRestarts(job.id, PAGES_PER_JOB, window);
    if (!starts.length) {
      await this.lifecycle.markRunning(job.id);
      await this.progress.completeIfDone(job.id);
      return;
    }
    await this.producer.restore(
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
    await this.producer.restore(
      'crawl-page',
      pages.map((idx) => ({ jobId, idx })),
    );
  }
}
