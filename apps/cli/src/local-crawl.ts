import { setTimeout as sleep } from 'node:timers/promises';
import { errorResult, type CrawlOptions, type PageResult, type ScrapeOptions } from '@app/queue-contracts';
import { CrawlScope, normaliseUrl, type Robots, type SitemapReader } from '@app/site';
import type { JobRun } from './local-jobs';

/** Pages rendered at once by one in-process crawl (the browser's own slots bound it further). */
const CRAWL_CONCURRENCY = 4;
/** A Crawl-delay above this is read as this, as the worker does. */
const MAX_CRAWL_DELAY_MS = 30_000;
const MAX_SITEMAP_URLS = 100_000;

export interface CrawlParts {
  render(url: string, index: number, options: ScrapeOptions): Promise<PageResult>;
  robots(origin: string): Promise<Robots>;
  sitemaps: SitemapReader;
  /** CRAWL_HOST_DELAY_MS: the least time between two fetches of one host. */
  hostDelayMs: number;
}

interface Page {
  url: string;
  depth: number;
  index: number;
}

/**
 * A crawl in this process, on the worker's rules (libs/site): URLs normalised and deduplicated,
 * kept to the crawl's scope, robots.txt obeyed (a disallowed URL is reported as BLOCKED_ROBOTS,
 * not fetched) with its Crawl-delay, the start page's sitemap URLs one hop away, `max_depth` hops
 * and `limit` pages fetched at most. The frontier is a list in memory: nothing outlives the process.
 */
export async function crawlInProcess(
  start: string,
  options: CrawlOptions,
  parts: CrawlParts,
  run: JobRun,
): Promise<void> {
  const scope = new CrawlScope(start, options);
  const seen = new Set<string>();
  const queue: Page[] = [];
  let admitted = 0;
  const admit = (raw: string, depth: number) => {
    const n = normaliseUrl(raw);
    if (!n || seen.has(n.key) || admitted >= options.limit) return;
    if (depth > 0 && scope.judge(new URL(n.url)) !== null) return;
    seen.add(n.key);
    queue.push({ url: n.url, depth, index: admitted++ });
    run.addTotal(1);
  };
  const nextSlot = new Map<string, number>();
  const pageParts = { ...parts, scope, admit, nextSlot };
  admit(start, 0);
  const inFlight = new Set<Promise<void>>();
  while ((queue.length || inFlight.size) && !run.signal.aborted) {
    while (queue.length && inFlight.size < CRAWL_CONCURRENCY && !run.signal.aborted) {
      const page = queue.shift()!;
      const task: Promise<void> = crawlPage(page, options, pageParts, run).finally(() =>
        inFlight.delete(task),
      );
      inFlight.add(task);
    }
    if (inFlight.size) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
}

async function crawlPage(
  page: Page,
  options: CrawlOptions,
  parts: CrawlParts & {
    scope: CrawlScope;
    admit: (url: string, depth: number) => void;
    nextSlot: Map<string, number>;
  },
  run: JobRun,
): Promise<void> {
  const url = new URL(page.url);
  const robots = options.respect_robots_txt ? await parts.robots(url.origin) : null;
  const verdict = robots ? robots.check(page.url) : true;
  if (verdict !== true) {
    return run.finish(
      errorResult(page.url, page.index, options, { code: 'BLOCKED_ROBOTS', message: verdict }),
    );
  }
  await politeWait(
    parts.nextSlot,
    url.host,
    Math.max(parts.hostDelayMs, Math.min(robots?.delayMs ?? 0, MAX_CRAWL_DELAY_MS)),
  );
  if (run.signal.aborted) return;
  const formats = options.formats.includes('links')
    ? options.formats
    : [...options.formats, 'links' as const];
  const result = await parts.render(page.url, page.index, { ...options, formats });
  const depth = page.depth + 1;
  const landed = !result.final_url || parts.scope.hostInScope(new URL(result.final_url).hostname);
  if (!result.error && depth <= options.max_depth && landed) {
    for (const link of result.links ?? []) parts.admit(link, depth);
  }
  if (page.index === 0 && !options.ignore_sitemap && options.max_depth >= 1) {
    const listed = robots?.sitemaps ?? [];
    const urls = await parts.sitemaps.pageUrls(url.origin, listed, MAX_SITEMAP_URLS);
    for (const found of urls) parts.admit(found, 1);
  }
  if (!options.formats.includes('links')) delete result.links;
  run.finish(result);
}

/** Waits for the host's next fetch slot, `delayMs` after the one before. */
async function politeWait(nextSlot: Map<string, number>, host: string, delayMs: number): Promise<void> {
  if (delayMs <= 0) return;
  const now = Date.now();
  const at = Math.max(now, nextSlot.get(host) ?? 0);
  nextSlot.set(host, at + delayMs);
  if (at > now) await sleep(at - now);
}
