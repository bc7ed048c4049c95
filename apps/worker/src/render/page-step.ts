import { Injectable, Logger } from '@nestjs/common';
import { UsageRecorder } from '@app/auth';
import { WorkerEnv } from '@app/config';
import { Job, JobLifecycle, PageProgress } from '@app/jobs';
import type { PageResult, ScrapeOptions, SyncScrapeData } from '@app/queue-contracts';
import { RenderService } from '@app/rendering';
import { InFlightLimits, Lease } from './in-flight-limits';
import { renderWithRetries } from './render-attempts';

/** How soon a page that found its account or host at the in-flight limit is tried again. */
export const LIMITED_RETRY_MS = 250;
/** A lease outlives the page's own timeout by this much before Redis frees it on its own. */
const LEASE_MARGIN_MS = 30_000;

/** Why a page was not rendered: its job was cancelled, or another worker finished the page. */
export type Refusal = 'cancelled' | 'taken';

type Owner = Pick<Job, 'accountId' | 'environment'>;

/**
 * One page, whatever asked for it: a slot under the account's and the host's in-flight limits,
 * the running mark (which refuses a page of a cancelled job), the render, the stored result and
 * its usage. PageRunner (a scrape's or a batch's chunk) and CrawlRunner (a crawl's page) add only
 * how they pick their pages; the sync scrape shares the render and the usage.
 */
@Injectable()
export class PageStep {
  private readonly logger = new Logger(PageStep.name);

  constructor(
    private readonly pages: PageProgress,
    private readonly lifecycle: JobLifecycle,
    private readonly renderer: RenderService,
    private readonly limits: InFlightLimits,
    private readonly usage: UsageRecorder,
    private readonly env: WorkerEnv,
  ) {}

  /** One slot under the account's plan limit and one under the host's cap, or null when either is full. */
  lease(job: Pick<Job, 'accountId' | 'options'>, url: string, maxInFlight: number): Promise<Lease | null> {
    return this.limits.acquire(
      [
        { key: `account:${job.accountId}`, limit: maxInFlight },
        { key: `host:${new URL(url).host}`, limit: this.env.HOST_CONCURRENCY },
      ],
      (job.options as ScrapeOptions).timeout + LEASE_MARGIN_MS,
    );
  }

  /**
   * Marks the page running and renders it; a refused mark means the job was cancelled or the page
   * finished elsewhere, and its result is never stored. With `overlap` the render starts while
   * the mark commits (a commit costs as much as a static page's whole render): a batch's pages
   * go faster, and a page starting in the instant of a cancel is fetched and dropped. Without,
   * nothing is fetched once the cancel has committed.
   */
  async render(
    job: Job,
    page: { idx: number; url: string },
    options: ScrapeOptions,
    { overlap }: { overlap: boolean },
  ): Promise<PageResult | Refusal> {
    const render = () =>
      renderWithRetries(
        this.renderer,
        { url: page.url, index: page.idx, options, isolationKey: job.accountId },
        (attempt, err) =>
          this.logger.warn({ jobId: job.id, index: page.idx, attempt, err }, 'render crashed'),
      );
    let result: PageResult | undefined;
    if (overlap) {
      const rendering = render();
      rendering.catch(() => undefined);
      const marked = await this.pages.markRunning(job.id, page.idx);
      result = await rendering;
      if (marked) return result;
    } else if (await this.pages.markRunning(job.id, page.idx)) {
      return render();
    }
    return (await this.lifecycle.cancelled(job.id)) ? 'cancelled' : 'taken';
  }

  /**
   * Stores a page's result; returns false when another worker already had. A page reported without
   * being fetched (`fetched: false`, a crawl's start page blocked by robots.txt) counts no usage.
   */
  async store(
    job: Pick<Job, 'id' | 'accountId' | 'environment'>,
    result: PageResult,
    { fetched = true } = {},
  ): Promise<boolean> {
    const stored = await this.pages.finish(job.id, result);
    // Counted only by the worker whose result was stored, so a page rendered twice counts once.
    if (stored && fetched) await this.count(job, result);
    return stored;
  }

  /**
   * POST /v1/scrape's page: rendered at once (sync jobs are first in the queue) and counted. A
   * crash is not retried here: it goes back to the API, which answers 503 and charges nothing.
   */
  async sync({ accountId, environment, url, options }: SyncScrapeData): Promise<PageResult> {
    const result = await this.renderer.render({ url, index: 0, options, isolationKey: accountId });
    await this.count({ accountId, environment }, result);
    return result;
  }

  private count(owner: Owner, result: PageResult): Promise<void> {
    return this.usage.record(owner.accountId, owner.environment, {
      succeeded: !result.error,
      renderMs: result.timings.render_ms,
    });
  }
}
