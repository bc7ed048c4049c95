import { Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkerEnv } from '@app/config';
import {
  CrawlPages,
  Job,
  JobLifecycle,
  JobQueries,
  PageProgress,
  PageRow,
  TERMINAL_JOB_STATUSES,
} from '@app/jobs';
import { JobProducer } from '@app/queues';
import {
  UNFETCHED_PAGE_CODES,
  type CrawlOptions,
  type CrawlPageData,
  type PageResult,
  type ScrapeOptions,
} from '@app/queue-contracts';
import { RenderService } from '@app/rendering';
import { InFlightLimits } from '../render/in-flight-limits';
import { JobProgress } from '../render/job-progress.service';
import { errorResult, renderWithRetries } from '../render/render-attempts';
import { Admission, CrawlFrontier, FrontierLostError, FrontierRecord } from './crawl-frontier';
import { CrawlScope } from './crawl-scope';
import { HostGate } from './host-gate';
import { Robots, RobotsRules } from './robots-rules.service';
import { SitemapReader } from './sitemap-reader.service';
import { normaliseUrl } from './url-normaliser';

/** How soon a page that found its account or host at the in-flight limit tries again. */
const LIMITED_RETRY_MS = 250;
const LEASE_MARGIN_MS = 30_000;
/** A wait for the host's next slot up to this long is slept in place; a longer one goes back to the queue. */
const INLINE_WAIT_MS = 1500;
/** A Crawl-delay above this is read as this: one page a minute would make a crawl last days. */
export const MAX_CRAWL_DELAY_MS = 30_000;
/** Candidates per frontier call (a sitemap may list 50,000 URLs). */
const ADMIT_BATCH = 1000;
const REBUILD_TRIES = 100;

type UnfetchedCode = (typeof UNFETCHED_PAGE_CODES)[number];

/** A discovered URL with what the crawl will do with it. */
interface Found {
  url: string;
  key: string;
  depth: number;
  skip?: { code: UnfetchedCode; message: string };
}

/**
 * Renders one page of a crawl and grows the crawl from it: the page's links
 * (and, for the start page, the sitemap's URLs) are judged against scope and robots.txt, admitted
 * by the Redis frontier (dedupe, `limit`, discovery order), stored as page rows and queued. The
 * children are stored, and jobs.total raised, BEFORE the parent page finishes, so completed +
 * failed can never reach total while a page still has children to add: the crawl ends once.
 */
@Injectable()
export class CrawlRunner {
  private readonly logger = new Logger(CrawlRunner.name);

  constructor(
    private readonly jobs: JobQueries,
    private readonly pages: PageProgress,
    private readonly crawlPages: CrawlPages,
    private readonly lifecycle: JobLifecycle,
    private readonly progress: JobProgress,
    private readonly renderer: RenderService,
    private readonly limits: InFlightLimits,
    private readonly producer: JobProducer,
    private readonly env: WorkerEnv,
    private readonly frontier: CrawlFrontier,
    private readonly gate: HostGate,
    private readonly robots: RobotsRules,
    private readonly sitemaps: SitemapReader,
  ) {}

  async run({ jobId, idx, slotAt }: CrawlPageData): Promise<void> {
    const job = await this.jobs.find(jobId);
    if (!job || TERMINAL_JOB_STATUSES.includes(job.status)) return;
    const page = await this.pages.page(jobId, idx);
    if (!page) return;
    if (page.status === 'succeeded' || page.status === 'failed') return this.complete(jobId);
    await this.lifecycle.markRunning(jobId);
    const options = job.options as CrawlOptions;
    const url = new URL(page.url);
    const robots = options.respect_robots_txt ? await this.robots.forOrigin(url.origin) : null;
    // Discovered URLs were judged when admitted; the start page is the caller's, judged here.
    const verdict = idx === 0 && robots ? robots.check(page.url) : true;
    if (verdict !== true) {
      await this.progress.finishPage(
        job,
        errorResult(page.url, idx, options, { code: 'BLOCKED_ROBOTS', message: verdict }),
        {
          fetched: false,
        },
      );
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
    const lease = await this.limits.acquire(
      [
        { key: `account:${job.accountId}`, limit: await this.progress.maxConcurrentPages(job.accountId) },
        { key: `host:${url.host}`, limit: this.env.HOST_CONCURRENCY },
      ],
      options.timeout + LEASE_MARGIN_MS,
    );
    if (!lease) return this.handBack(jobId, idx, LIMITED_RETRY_MS);
    try {
      await this.pages.markRunning(jobId, idx);
      const result = await renderWithRetries(
        this.renderer,
        { url: page.url, index: idx, options: renderOptions(options), isolationKey: job.accountId },
        (attempt, err) => this.logger.warn({ jobId, idx, attempt, err }, 'render crashed'),
      );
      // A page run before (a crashed worker) may have admitted children whose rows were not stored.
      if (!(await this.lifecycle.cancelled(jobId)))
        await this.grow(job, options, page, idx, result, page.attempts > 0);
      if (!options.formats.includes('links')) delete result.links;
      await this.progress.finishPage(job, result);
    } finally {
      await lease.release();
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

  /** Admits what the page leads to and stores it as rows, then queues the pages to fetch. */
  private async grow(
    job: Job,
    options: CrawlOptions,
    page: PageRow,
    idx: number,
    result: PageResult,
    retried: boolean,
  ): Promise<void> {
    const scope = new CrawlScope(job.url ?? page.url, options);
    if (!result.error) await this.aliasOtherSpellings(job.id, idx, result, scope);
    const found: Found[] = [];
    const depth = page.depth + 1;
    const landedInScope = !result.final_url || scope.hostInScope(new URL(result.final_url).hostname);
    // A page that failed, sits at max_depth or was redirected off the site leads nowhere.
    if (!result.error && depth <= options.max_depth && landedInScope) {
      found.push(...(await this.judge(result.links ?? [], depth, scope, options)));
    }
    if (idx === 0 && !options.ignore_sitemap && options.max_depth >= 1) {
      const origin = new URL(page.url).origin;
      const listed = options.respect_robots_txt ? (await this.robots.forOrigin(origin)).sitemaps : [];
      const urls = await this.sitemaps.pageUrls(origin, listed, options.limit * 2);
      found.push(...(await this.judge(urls, 1, scope, options)));
    }
    if (!found.length) return;
    const admitted: { found: Found; idx: number }[] = [];
    for (let i = 0; i < found.length; i += ADMIT_BATCH) {
      const batch = found.slice(i, i + ADMIT_BATCH);
      const admissions = await this.admit(job.id, options.limit, batch);
      admissions.forEach((a, j) => {
        // On a retry, rows this page admitted before may be missing: store them all (INSERT IGNORE).
        if (a.idx >= 0 && (a.isNew || retried)) admitted.push({ found: batch[j], idx: a.idx });
      });
    }
    if (!admitted.length) return;
    await this.crawlPages.addChildren(
      job.id,
      admitted.map(({ found, idx }) => ({
        idx,
        url: found.url,
        depth: found.depth,
        ...(found.skip
          ? { skipped: { ...errorResult(found.url, idx, options, found.skip), error: found.skip } }
          : {}),
      })),
    );
    const toFetch = admitted.filter((a) => !a.found.skip);
    await this.producer.addMany(
      'crawl-page',
      toFetch.map((a) => ({ jobId: job.id, idx: a.idx })),
    );
  }

  /** The final URL after redirects and the canonical URL are the same page: never fetched again. */
  private async aliasOtherSpellings(jobId: string, idx: number, result: PageResult, scope: CrawlScope) {
    for (const other of [result.final_url, result.metadata.canonical_url]) {
      const n = other ? normaliseUrl(other) : null;
      if (n && scope.hostInScope(new URL(n.url).hostname)) await this.frontier.alias(jobId, n.key, idx);
    }
  }

  /** Normalised, deduplicated, and each either to fetch or to report with the reason it is not. */
  private async judge(
    urls: string[],
    depth: number,
    scope: CrawlScope,
    options: CrawlOptions,
  ): Promise<Found[]> {
    const byKey = new Map<string, Found>();
    for (const raw of urls) {
      const n = normaliseUrl(raw);
      if (!n || byKey.has(n.key)) continue;
      const reason = scope.judge(new URL(n.url));
      byKey.set(n.key, {
        ...n,
        depth,
        ...(reason ? { skip: { code: 'OUT_OF_SCOPE', message: reason } } : {}),
      });
    }
    if (options.respect_robots_txt) {
      const origins = [
        ...new Set([...byKey.values()].filter((f) => !f.skip).map((f) => new URL(f.url).origin)),
      ];
      const rules = new Map<string, Robots>(
        await Promise.all(origins.map(async (o) => [o, await this.robots.forOrigin(o)] as const)),
      );
      for (const f of byKey.values()) {
        const verdict = f.skip ? true : rules.get(new URL(f.url).origin)!.check(f.url);
        if (verdict !== true) f.skip = { code: 'BLOCKED_ROBOTS', message: verdict };
      }
    }
    return [...byKey.values()];
  }

  private async admit(jobId: string, limit: number, found: Found[]): Promise<Admission[]> {
    const candidates = found.map((f) => ({
      key: f.key,
      kind: f.skip ? ('skip' as const) : ('fetch' as const),
    }));
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.frontier.admit(jobId, candidates);
      } catch (err) {
        if (!(err instanceof FrontierLostError) || attempt >= REBUILD_TRIES) throw err;
        const rebuilt = await this.frontier.rebuild(jobId, limit, () => this.frontierRecord(jobId));
        if (!rebuilt) await sleep(100);
      }
    }
  }

  /** The frontier as MySQL knows it, for a rebuild after Redis lost it (or before the first admission). */
  private async frontierRecord(jobId: string): Promise<FrontierRecord> {
    const rows = await this.crawlPages.rows(jobId);
    const record: FrontierRecord = { fetched: 0, skipped: 0, maxIdx: -1, seen: new Map() };
    for (const row of rows) {
      const unfetched = UNFETCHED_PAGE_CODES.includes(row.error_code as UnfetchedCode);
      if (unfetched) record.skipped++;
      else record.fetched++;
      record.maxIdx = Math.max(record.maxIdx, row.idx);
      const n = normaliseUrl(row.url);
      if (n) record.seen.set(n.key, row.idx);
    }
    return record;
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
