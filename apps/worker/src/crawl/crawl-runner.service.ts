import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkerEnv } from '@app/config';
import { JobLifecycle, JobQueries, PageProgress, TERMINAL_JOB_STATUSES } from '@app/jobs';
import { JobProducer } from '@app/queues';
import { type CrawlOptions, type CrawlPageData, type ScrapeOptions, errorResult } from '@app/queue-contracts';
import { JobProgress } from '../render/job-progress.service';
import { LIMITED_RETRY_MS, PageStep } from '../render/page-step';
import { CrawlFrontier } from './crawl-frontier';
import { CrawlGrowth } from './crawl-growth.service';
import { HostGate } from './host-gate';
import { RobotsRules } from './robots-rules.service';

/** A wait for the host's next slot up to this long is slept in place; a longer one goes back to the queue. */
const INLINE_WAIT_MS = 1500;
/** A page another run holds is looked at again this much later (its run takes a page's time). */
const HELD_RETRY_MS = 1000;
/** A Crawl-delay above this is read as this: one page a minute would make a crawl last days. */
export const MAX_CRAWL_DELAY_MS = 30_000;
/**
 * One page of a crawl: robots.txt and the host's politeness delay before it, PageStep for the page
 * itself (lease, running mark, render, store), and CrawlGrowth after the render. The children are
 * stored, and jobs.total raised, BEFORE the parent page finishes, so completed + failed can never
 * reach total while a page still has children to add: the crawl ends once.
 */
@Injectable()
export class CrawlRunner {
  constructor(
    private readonly jobs: JobQueries,
    private readonly pages: PageProgress,
    private readonly lifecycle: JobLifecycle,
    private readonly progress: JobProgress,
    private readonly step: PageStep,
    private readonly growth: CrawlGrowth,
    private readonly producer: JobProducer,
    private readonly env: WorkerEnv,
    private readonly frontier: CrawlFrontier,
    private readonly gate: HostGate,
    private readonly robots: RobotsRules,
  ) {}

  async run({ jobId, idx, slotAt }: CrawlPageData): Promise<void> {
    const job = await this.jobs.find(jobId);
    if (!job || TERMINAL_JOB_STATUSES.includes(job.status)) return;
    const page = await this.pages.page(jobId, idx);
    if (!page) return;
    if (page.status === 'succeeded' || page.status === 'failed') return this.complete(jobId);
    // The job's running mark is needed once: a job found running already has it.
    if (job.status === 'queued') await this.lifecycle.markRunning(jobId);
    const options = job.options as CrawlOptions;
    const url = new URL(page.url);
    // A page refused its proxy fails PROXY in the render: its robots.txt is not fetched either.
    const route = this.step.siteRoute(job);
    const robots =
      options.respect_robots_txt && route ? await this.robots.forOrigin(url.origin, route.proxy) : null;
    // Discovered URLs were judged when admitted; the start page is the caller's, judged here.
    const verdict = idx === 0 && robots ? robots.check(page.url) : true;
    if (verdict !== true) {
      const blocked = errorResult(page.url, idx, options, { code: 'BLOCKED_ROBOTS', message: verdict });
      await this.step.store(job, blocked, { fetched: false });
      return this.complete(jobId);
    }

    const delayMs = Math.max(
      this.env.CRAWL_HOST_DELAY_MS,
      Math.min(robots?.delayMs ?? 0, MAX_CRAWL_DELAY_MS),
    );
    if (delayMs > 0) {
      const comeBackAt = await this.waitForSlot(url.host, delayMs, slotAt !== undefined);
      if (comeBackAt !== null) return this.handBack(jobId, idx, comeBackAt - Date.now(), comeBackAt);
    }
    // Another run holds the page (its queue job run again while it was in flight): this one comes
    // back, to find it done, or to take it over once a dead holder's hold has lapsed.
    const [lease, hold] = await Promise.all([
      this.progress.maxConcurrentPages(job.accountId).then((max) => this.step.lease(job, page.url, max)),
      this.step.hold(job, idx),
    ]);
    if (!hold) {
      await lease?.release();
      return this.handBack(jobId, idx, HELD_RETRY_MS);
    }
    if (!lease) {
      await hold.release();
      return this.handBack(jobId, idx, LIMITED_RETRY_MS);
    }
    try {
      // The render waits for the running mark: once a cancel has committed, nothing is fetched.
      const result = await this.step.render(
        job,
        { idx, url: page.url, attempts: page.attempts },
        renderOptions(options),
        { overlap: false, route },
      );
      if (result === 'cancelled') return;
      if (result !== 'taken') {
        if (!(await this.lifecycle.cancelled(jobId)))
          await this.growth.grow(job, options, page, idx, result, { retried: page.attempts > 0, route });
        if (!options.formats.includes('links')) delete result.links;
        await this.step.store(job, result);
      }
    } finally {
      await Promise.all([lease.release(), hold.release()]);
    }
    await this.complete(jobId);
  }

  /** Waits up to INLINE_WAIT_MS for the host's next slot; null to go now, else when to come back. */
  private async waitForSlot(host: string, delayMs: number, booked: boolean): Promise<number | null> {
    for (;;) {
      const waitMs = await this.gate.take(host, delayMs, booked);
      if (waitMs <= 0) return null;
      booked = true;
      if (waitMs > INLINE_WAIT_MS) return Date.now() + waitMs;
      await sleep(waitMs);
    }
  }

  private async handBack(jobId: string, idx: number, delay: number, slotAt?: number): Promise<void> {
    await this.producer.add(
      'crawl-page',
      { jobId, idx, ...(slotAt ? { slotAt } : {}) },
      { delay: Math.max(0, delay), again: true },
    );
  }

  private async complete(jobId: string): Promise<void> {
    if (await this.progress.completeIfDone(jobId)) await this.frontier.drop(jobId);
  }
}

/** The page's scrape options, links always asked for: a crawl follows them. */
function renderOptions(options: CrawlOptions): ScrapeOptions {
  const {
    limit: _limit,
    max_depth: _depth,
    include_paths: _include,
    exclude_paths: _exclude,
    allow_subdomains: _subdomains,
    allow_external_links: _external,
    ignore_sitemap: _sitemap,
    respect_robots_txt: _robots,
    ...scrape
  } = options;
  return scrape.formats.includes('links') ? scrape : { ...scrape, formats: [...scrape.formats, 'links'] };
}
