import { loadRenderingEnv, type WorkerEnv } from '@app/config';
import type { JobView } from '@app/jobs';
import { BackendRefusal, type RequestBody, type ScraperBackend } from '@app/mcp';
import { createAddressPolicy, defaultResolver } from '@app/net-guard';
import {
  CRAWL_DEFAULTS,
  MAP_DEFAULTS,
  SCRAPE_DEFAULTS,
  errorResult,
  type CrawlSettings,
  type MapSettings,
  type ScrapeOptions,
} from '@app/queue-contracts';
import { startRendering, type Rendering } from '@app/rendering';
import {
  MAP_START_PAGE_OPTIONS,
  SitemapReader,
  mapSite,
  readRobotsFile,
  toRobots,
  type Robots,
} from '@app/site';
import { crawlInProcess } from './local-crawl';
import { LocalJobs } from './local-jobs';

/** Every page rendered here shares one browser state: there is one user. */
const ISOLATION_KEY = 'cli';
/** Scrape options that have no default but may be given. */
const OPTIONAL_SCRAPE_KEYS = ['wait_for', 'headers', 'include_tags', 'exclude_tags', 'actions'] as const;

export interface LocalBackendOptions {
  /** The environment read as the worker reads it (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** CIDRs opened on top of NET_ALLOW_CIDRS. */
  allowCidrs?: string[];
}

/** A backend that holds a browser and threads: close it when done. */
export interface LocalBackend extends ScraperBackend {
  close(): Promise<void>;
}

/**
 * The scraper in this process: libs/rendering for pages, libs/site for maps and crawls, the
 * worker's address policy (NET_EGRESS_MODE, NET_ALLOW_CIDRS and `allowCidrs`). No MySQL, Redis or
 * secrets; batches and crawls are jobs in memory (LocalJobs). Nothing starts until the first
 * request, and a browser only for a page that needs one.
 */
export function localBackend({ env = process.env, allowCidrs = [] }: LocalBackendOptions = {}): LocalBackend {
  const opened = [env.NET_ALLOW_CIDRS, ...allowCidrs].filter((c) => !!c).join(',');
  const config: WorkerEnv = loadRenderingEnv({ ...env, NET_ALLOW_CIDRS: opened });
  const policy = createAddressPolicy({ mode: config.NET_EGRESS_MODE, allowCidrs: config.NET_ALLOW_CIDRS });
  const net = { policy, resolver: defaultResolver };
  let started: Promise<Rendering> | undefined;
  const rendering = () => (started ??= startRendering({ env: config, ...net }));
  const sitemaps = new SitemapReader(policy, defaultResolver);
  const robotsByOrigin = new Map<string, Promise<Robots>>();
  const robots = (origin: string) => {
    let found = robotsByOrigin.get(origin);
    if (!found) {
      const file = readRobotsFile(origin, net, config.ROBOTS_MAX_BYTES, config.ROBOTS_TIMEOUT_MS);
      found = file.then((f) => toRobots(origin, f));
      robotsByOrigin.set(origin, found);
    }
    return found;
  };
  const render = async (url: string, index: number, options: ScrapeOptions) =>
    (await rendering()).service.render({
      url,
      index,
      options,
      isolationKey: ISOLATION_KEY,
      first: index === 0,
    });
  const jobs = new LocalJobs();

  return {
    scrape: async (body) => render(urlOf(body), 0, scrapeOptions(body)),
    map: async (body) => {
      const settings: MapSettings = {
        ...MAP_DEFAULTS,
        ...pick(body, [...Object.keys(MAP_DEFAULTS), 'search']),
      };
      const startPageLinks = async (url: string) =>
        (await render(url, 0, MAP_START_PAGE_OPTIONS)).links ?? [];
      return mapSite(urlOf(body), settings, { startPageLinks, robots, sitemaps });
    },
    crawl: async (body) => {
      const url = urlOf(body);
      const options = {
        ...scrapeOptions(body),
        ...CRAWL_DEFAULTS,
        ...pick<CrawlSettings>(body, Object.keys(CRAWL_DEFAULTS)),
      };
      const parts = { render, robots, sitemaps, hostDelayMs: config.CRAWL_HOST_DELAY_MS };
      return jobs.start('crawl', (run) => crawlInProcess(url, options, parts, run));
    },
    batchScrape: async (body) => {
      const urls = body.urls;
      if (!Array.isArray(urls) || !urls.length || urls.some((u) => typeof u !== 'string')) {
        throw new BackendRefusal('invalid_request', 'urls: must be a non-empty list of URLs', 400);
      }
      const options = scrapeOptions(body);
      return jobs.start('batch', async (run) => {
        run.addTotal(urls.length);
        for (const [index, url] of (urls as string[]).entries()) {
          if (run.signal.aborted) return;
          run.finish(await render(url, index, options).catch(() => machineryFailure(url, index, options)));
        }
      });
    },
    jobStatus: async (jobId, page): Promise<JobView> => jobs.status(jobId, page),
    cancel: async (jobId) => jobs.cancel(jobId),
    close: async () => {
      jobs.cancelAll();
      if (started) await (await started).close();
    },
  };
}

function urlOf(body: RequestBody): string {
  if (typeof body.url !== 'string' || body.url === '') {
    throw new BackendRefusal('invalid_request', 'url: must be a URL', 400);
  }
  return body.url;
}

/** The request's scrape options over the defaults, as the API fills them in. */
function scrapeOptions(body: RequestBody): ScrapeOptions {
  return { ...SCRAPE_DEFAULTS, ...pick(body, [...Object.keys(SCRAPE_DEFAULTS), ...OPTIONAL_SCRAPE_KEYS]) };
}

function pick<T>(body: RequestBody, keys: readonly string[]): Partial<T> {
  return Object.fromEntries(keys.filter((k) => body[k] !== undefined).map((k) => [k, body[k]])) as Partial<T>;
}

/** A batch page whose render threw (no browser could start): failed, as the worker's last try would. */
function machineryFailure(url: string, index: number, options: ScrapeOptions) {
  return errorResult(url, index, options, {
    code: 'RENDER_CRASH',
    message: 'the page could not be rendered',
  });
}
