import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkerEnv } from '@app/config';
import { CrawlPages, Job, PageRow } from '@app/jobs';
import type { UpstreamProxy } from '@app/net-guard';
import { JobProducer } from '@app/queues';
import { UNFETCHED_PAGE_CODES, type CrawlOptions, type PageResult, errorResult } from '@app/queue-contracts';
import { CrawlScope, SitemapReader, normaliseUrl, type Robots } from '@app/site';
import type { SiteRoute } from '../render/proxy-pool';
import { Admission, CrawlFrontier, FrontierLostError, FrontierRecord } from './crawl-frontier';
import { RobotsRules } from './robots-rules.service';

/** Candidates per frontier call (a sitemap may list 50,000 URLs). */
const ADMIT_BATCH = 1000;
const REBUILD_TRIES = 100;
/** robots.txt files loaded at once for one page's links (a page may lead to thousands of origins). */
const ROBOTS_CONCURRENCY = 8;

type UnfetchedCode = (typeof UNFETCHED_PAGE_CODES)[number];

/** A discovered URL with what the crawl will do with it. */
interface Found {
  url: string;
  key: string;
  depth: number;
  skip?: { code: UnfetchedCode; message: string };
}

/**
 * How a crawl grows from a rendered page: its links (and, for the start page, the sitemap's URLs)
 * are judged against scope and robots.txt, admitted by the Redis frontier (dedupe, `limit`,
 * discovery order), stored as page rows and queued.
 */
@Injectable()
export class CrawlGrowth {
  private readonly maxLinks: number;

  constructor(
    private readonly crawlPages: CrawlPages,
    private readonly producer: JobProducer,
    private readonly frontier: CrawlFrontier,
    private readonly robots: RobotsRules,
    private readonly sitemaps: SitemapReader,
    env: WorkerEnv,
  ) {
    this.maxLinks = env.LINKS_MAX_PER_PAGE;
  }

  /**
   * Admits what the page leads to and stores it as rows, then queues the pages to fetch. `retried`:
   * a page run before (a crashed worker) may have admitted children whose rows were not stored.
   * `route`: how robots.txt and sitemaps go out (PageStep.siteRoute); with none, they are not read.
   */
  async grow(
    job: Job,
    options: CrawlOptions,
    page: PageRow,
    idx: number,
    result: PageResult,
    { retried, route }: { retried: boolean; route: SiteRoute },
  ): Promise<void> {
    const scope = new CrawlScope(job.url ?? page.url, options);
    if (!result.error) await this.aliasOtherSpellings(job.id, idx, result, scope);
    const found: Found[] = [];
    const depth = page.depth + 1;
    // No route: the page failed PROXY, and nothing goes out directly in its stead.
    if (!route) return;
    const { proxy } = route;
    const landedInScope = !result.final_url || scope.hostInScope(new URL(result.final_url).hostname);
    // A page that failed, sits at max_depth or was redirected off the site leads nowhere.
    if (!result.error && depth <= options.max_depth && landedInScope) {
      // Extraction stops at the cap too; a result from elsewhere is held to it here.
      const links = (result.links ?? []).slice(0, this.maxLinks);
      found.push(...(await this.judge(links, depth, scope, options, proxy)));
    }
    if (idx === 0 && !options.ignore_sitemap && options.max_depth >= 1) {
      const origin = new URL(page.url).origin;
      const listed = options.respect_robots_txt ? (await this.robots.forOrigin(origin, proxy)).sitemaps : [];
      const urls = await this.sitemaps.pageUrls(origin, listed, options.limit * 2, { proxy });
      found.push(...(await this.judge(urls, 1, scope, options, proxy)));
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
    proxy: UpstreamProxy | undefined,
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
      const rules = await this.rulesOf(origins, proxy);
      for (const f of byKey.values()) {
        const verdict = f.skip ? true : rules.get(new URL(f.url).origin)!.check(f.url);
        if (verdict !== true) f.skip = { code: 'BLOCKED_ROBOTS', message: verdict };
      }
    }
    return [...byKey.values()];
  }

  /** Each origin's robots.txt, a few at a time; RobotsRules fetches each at most once while cached. */
  private async rulesOf(origins: string[], proxy: UpstreamProxy | undefined): Promise<Map<string, Robots>> {
    const rules = new Map<string, Robots>();
    let next = 0;
    const lane = async () => {
      while (next < origins.length) {
        const origin = origins[next++];
        rules.set(origin, await this.robots.forOrigin(origin, proxy));
      }
    };
    await Promise.all(Array.from({ length: Math.min(ROBOTS_CONCURRENCY, origins.length) }, lane));
    return rules;
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
