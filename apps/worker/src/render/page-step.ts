import { Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageRecorder } from '@app/auth';
import { isBackingServiceOutage } from '@app/common';
import { WorkerEnv } from '@app/config';
import { Job, JobLifecycle, PageProgress, SealedHeaders, storable } from '@app/jobs';
import { type PageResult, type ScrapeOptions, type SyncScrapeData, errorResult } from '@app/queue-contracts';
import type { RunningJob } from '@app/queues';
import { RenderService, type RenderRequest } from '@app/rendering';
import { ResultCache } from '@app/result-cache';
import { SessionStore } from '@app/sessions';
import { InFlightLimits, Lease } from './in-flight-limits';
import { ProxyPool, type SiteRoute } from './proxy-pool';
import { renderCounted } from './render-attempts';

/** How soon a page that found its account or host at the in-flight limit is tried again. */
export const LIMITED_RETRY_MS = 250;
/** A lease outlives the page's own timeout by this much before Redis frees it on its own. */
const LEASE_MARGIN_MS = 30_000;
/** How long a rendered page's store waits out a database outage (a MySQL restart takes seconds). */
const STORE_OUTAGE_WAIT_MS = 30_000;

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
    private readonly headers: SealedHeaders,
    private readonly sessions: SessionStore,
    private readonly proxies: ProxyPool,
    private readonly cache: ResultCache,
  ) {}

  /**
   * The page to one run at a time, across workers, until released (once stored), or null when
   * another run holds it. Two runs of one chunk meet after a worker kill (the lost run, run again
   * after its stall, beside the copy it had handed back, in any worker), and two of a crawl page
   * when its queue job runs again while in flight: each would otherwise mark the page (two tries
   * counted for one, and a kill during the next try a RENDER_CRASH nothing caused) and fetch it. A
   * lease like the limits' own: a dead holder's frees within 20 s.
   */
  hold(job: Pick<Job, 'id' | 'options'>, idx: number) {
    const { timeout } = job.options as ScrapeOptions;
    return this.limits.acquire([{ key: `page:${job.id}:${idx}`, limit: 1 }], timeout + LEASE_MARGIN_MS);
  }

  /**
   * One slot under the account's plan limit and one under the host's cap, or null when either is
   * full; a page of a session also takes the session's one slot, so its pages go one at a time
   * across workers (docs/api.md, Sessions).
   */
  lease(job: Pick<Job, 'accountId' | 'environment' | 'options'>, url: string, maxInFlight: number) {
    const options = job.options as ScrapeOptions;
    return this.limits.acquire(
      [
        { key: `account:${job.accountId}`, limit: maxInFlight },
        { key: `host:${new URL(url).host}`, limit: this.env.HOST_CONCURRENCY },
        ...(options.session_id ? [{ key: sessionKey(job, options.session_id), limit: 1 }] : []),
      ],
      options.timeout + LEASE_MARGIN_MS,
    );
  }

  /**
   * How one page of the job goes out (docs/api.md, Upstream proxies), chosen once so that a crawl
   * page's robots.txt and sitemaps take the same pool proxy as the page (`render`'s `route`) and
   * the pool's turn moves once a page.
   */
  siteRoute(job: Pick<Job, 'accountId' | 'environment' | 'options'>): SiteRoute {
    return this.proxies.siteRoute(this.headers.open(job.options as ScrapeOptions, job), job);
  }

  /**
   * Marks the page running and renders it; a refused mark means the job was cancelled or the page
   * finished elsewhere, and its result is never stored. Each try is counted with the page as it is
   * marked (`attempts`: the tries before this worker's), so a page that took workers down fails
   * as RENDER_CRASH once at PAGE_MAX_ATTEMPTS instead of being rendered again (renderCounted).
   * With `overlap` the first try starts while its mark commits (a commit costs as much as a static
   * page's whole render): a batch's pages go faster, and a page starting in the instant of a cancel
   * is fetched and dropped. Without, nothing is fetched once the cancel has committed. `route`:
   * the way out `siteRoute` chose for this page, else one is chosen here. A page in the result
   * cache within the options' `max_age` is marked and answered from it, not rendered; a page
   * rendered is written to it.
   */
  async render(
    job: Job,
    page: { idx: number; url: string; attempts: number },
    options: ScrapeOptions,
    { overlap, route }: { overlap: boolean; route?: SiteRoute },
  ): Promise<PageResult | Refusal> {
    // The cache judges the request as given: its headers count even where a crawl drops them.
    const requested = this.headers.open(options, job);
    let opened = requested;
    // A crawl's pages come from its pages' links: the caller's headers go only to its start URL's origin.
    if (opened.headers && job.type === 'crawl' && job.url && !sameOrigin(page.url, job.url)) {
      const { headers: _dropped, ...rest } = opened;
      opened = rest;
    }
    const refused = this.proxies.refusal(opened);
    if (refused) return errorResult(page.url, page.idx, options, refused);
    const hit = await this.cache.get(job, { index: page.idx, url: page.url }, requested);
    if (hit) {
      if (await this.pages.markRunning(job.id, page.idx)) return hit;
      return (await this.lifecycle.cancelled(job.id)) ? 'cancelled' : 'taken';
    }
    const max = this.env.PAGE_MAX_ATTEMPTS;
    let tried = page.attempts;
    let firstMark: Promise<boolean> | undefined;
    const session = await this.openSession(job, options);
    const result = await renderCounted(
      this.renderer,
      {
        url: page.url,
        index: page.idx,
        options: opened,
        isolationKey: job.accountId,
        session,
        proxy: route ? route.proxy : this.proxies.choose(opened, job),
      },
      {
        max,
        next: async () => {
          tried += 1;
          // Past the limit nothing is marked or rendered: the failure is stored, unless cancelled.
          if (tried > max) {
            this.logger.warn({ jobId: job.id, index: page.idx, tries: max }, 'page tried out: RENDER_CRASH');
            return (await this.lifecycle.cancelled(job.id)) ? null : tried;
          }
          const marking = this.pages.markRunning(job.id, page.idx);
          if (overlap && !firstMark) {
            firstMark = marking;
            // Awaited once the render is back; marked handled so a failure waits for that.
            marking.catch(() => undefined);
            return tried;
          }
          return (await marking) ? tried : null;
        },
        onCrash: (attempt, err) =>
          this.logger.warn({ jobId: job.id, index: page.idx, attempt, err }, 'render crashed'),
      },
    );
    if (result && (!firstMark || (await firstMark))) {
      await this.saveSession(job, options, session);
      await this.cache.put(job, page.url, requested, result);
      return result;
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
    const stored = await this.finishThroughOutage(job.id, result);
    // Counted only by the worker whose result was stored, so a page rendered twice counts once.
    if (stored && fetched) await this.count(job, stored);
    return stored !== null;
  }

  /**
   * The store, tried again while MySQL is unreachable, for up to STORE_OUTAGE_WAIT_MS: the page is
   * rendered, and failing its chunk now would render it again and count a try against
   * PAGE_MAX_ATTEMPTS that no crash cost. The store is conditional, so a try whose commit got
   * through before the connection went reads as stored elsewhere (null): its usage goes uncounted
   * rather than counted twice.
   */
  private async finishThroughOutage(jobId: string, result: PageResult): Promise<PageResult | null> {
    const until = Date.now() + STORE_OUTAGE_WAIT_MS;
    for (let wait = 250; ; wait = Math.min(wait * 2, 4_000)) {
      try {
        return await this.pages.finish(jobId, result);
      } catch (err) {
        if (!isBackingServiceOutage(err) || Date.now() + wait > until) throw err;
        await sleep(wait);
      }
    }
  }

  /**
   * POST /v1/scrape's page: rendered at once (sync jobs are first in the queue), its session saved,
   * and counted. Its tries are counted on its queue job (nothing of it is in MySQL): a worker lost
   * under it hands it to another through Bull's stalled-job check, and past PAGE_MAX_ATTEMPTS the
   * worker that picks it up answers RENDER_CRASH without rendering it.
   */
  async sync(data: SyncScrapeData, job: RunningJob): Promise<PageResult> {
    const { accountId, environment, url, options } = data;
    const owner = { accountId, environment, options };
    // A session's page waits for the session's slot (its other pages go one at a time).
    const lease = options.session_id ? await this.sessionLease(owner) : undefined;
    if (lease === null) {
      const busy = `the session was busy with its other pages for the page's timeout of ${options.timeout} ms`;
      const answer = errorResult(url, 0, options, { code: 'TIMEOUT', message: busy });
      await this.count(owner, answer);
      return answer;
    }
    try {
      const session = await this.openSession(owner, options);
      const answer = await this.syncRender(data, job, session);
      // Saved before the page counts: a save that fails has the job tried again, uncounted.
      await this.saveSession(owner, options, session);
      await this.count(owner, answer);
      return answer;
    } finally {
      await lease?.release();
    }
  }

  private async syncRender(
    { accountId, environment, url, options }: SyncScrapeData,
    job: RunningJob,
    session: RenderRequest['session'],
  ): Promise<PageResult> {
    const opened = this.headers.open(options, { accountId, environment });
    const refused = this.proxies.refusal(opened);
    if (refused) return errorResult(url, 0, options, refused);
    const result = await renderCounted(
      this.renderer,
      {
        url,
        index: 0,
        options: opened,
        isolationKey: accountId,
        first: true,
        session,
        proxy: this.proxies.choose(opened, { accountId, environment }),
      },
      {
        max: this.env.PAGE_MAX_ATTEMPTS,
        next: async () => {
          const tried = await job.countTry();
          if (tried > this.env.PAGE_MAX_ATTEMPTS)
            this.logger.warn({ sync: true }, 'page tried out: RENDER_CRASH');
          return tried;
        },
        onCrash: (attempt, err) => this.logger.warn({ sync: true, attempt, err }, 'render crashed'),
      },
    );
    // A sync try is never refused: there is no job row to cancel or finish elsewhere. Capped as a
    // stored result is: it goes through Redis and to every API process's queue events.
    const answer = storable(result!).result;
    await this.cache.put({ accountId, environment }, url, opened, answer);
    return answer;
  }

  /**
   * The session's slot, tried for the page's timeout (the API waits about that long again for the
   * render); null then.
   */
  private async sessionLease(owner: Owner & Pick<Job, 'options'>): Promise<Lease | null> {
    const options = owner.options as ScrapeOptions;
    const until = Date.now() + options.timeout;
    for (;;) {
      const lease = await this.limits.acquire(
        [{ key: sessionKey(owner, options.session_id!), limit: 1 }],
        options.timeout + LEASE_MARGIN_MS,
      );
      if (lease || Date.now() >= until) return lease;
      await sleep(LIMITED_RETRY_MS);
    }
  }

  /** The state a session's page starts from (none without `session_id`). */
  private async openSession(owner: Owner, options: ScrapeOptions): Promise<RenderRequest['session']> {
    if (!options.session_id) return undefined;
    return { state: await this.sessions.load(owner, options.session_id) };
  }

  /** What the page left, saved for the session's next page; the session is kept alive either way. */
  private async saveSession(owner: Owner, options: ScrapeOptions, session: RenderRequest['session']) {
    if (!options.session_id || !session) return;
    const idleMs = this.env.SESSION_IDLE_MINUTES * 60_000;
    await this.sessions.save(owner, options.session_id, session.state, idleMs);
  }

  private count(owner: Owner, result: PageResult): Promise<void> {
    return this.usage.record(owner.accountId, owner.environment, {
      succeeded: !result.error,
      renderMs: result.timings.render_ms,
    });
  }
}

const sameOrigin = (a: string, b: string) => new URL(a).origin === new URL(b).origin;

/** The in-flight key of a session: one page at a time, whichever worker takes it. */
const sessionKey = ({ accountId, environment }: Owner, sessionId: string) =>
  `session:${accountId}:${environment}:${sessionId}`;
