import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import robotsParser from 'robots-parser';
import { AddressPolicy, HOST_RESOLVER, HostResolver } from '@app/net-guard';
import { REDIS, RedisKeys } from '@app/persistence';
import { fetchSiteFile } from './site-file';

/** The product token matched against `User-agent:` lines; groups for `*` apply otherwise. */
export const CRAWLER_TOKEN = 'ScraperClusterBot';
const CACHE_TTL_S = 3600;
const LOCAL_TTL_MS = 60_000;
const LOCAL_MAX = 1000;
/** Google reads the first 500 KiB; a larger file is read as allowing everything. */
const MAX_ROBOTS_BYTES = 512 * 1024;

/** What a site's robots.txt says to this crawler. */
export interface Robots {
  /** Why a disallowed URL is not fetched (reported as BLOCKED_ROBOTS), or true. */
  check(url: string): true | string;
  /** Crawl-delay in ms, when the file sets one. */
  delayMs: number | null;
  sitemaps: string[];
}

/** Cached form: the file's text, or that there is none (allow all) or it is unavailable (deny all). */
interface Cached {
  kind: 'file' | 'none' | 'unavailable';
  text?: string;
  status?: number;
}

/**
 * robots.txt per origin, parsed by robots-parser and cached in Redis for an hour (shared by all
 * workers) and in process for a minute. As Google reads it: 4xx means no rules; 5xx or 429 means
 * the whole site is off limits for now; no answer at all (DNS, refused address) means no rules,
 * and the page fetch then reports the real error.
 */
@Injectable()
export class RobotsRules {
  private readonly logger = new Logger(RobotsRules.name);
  private readonly local = new Map<string, { robots: Robots; until: number }>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly policy: AddressPolicy,
    @Inject(HOST_RESOLVER) private readonly resolver: HostResolver,
  ) {}

  async forOrigin(origin: string): Promise<Robots> {
    const hit = this.local.get(origin);
    if (hit && hit.until > Date.now()) return hit.robots;
    const key = this.keys.key('robots', origin);
    const stored = await this.redis.get(key);
    let cached: Cached;
    if (stored) cached = JSON.parse(stored) as Cached;
    else {
      cached = await this.fetch(origin);
      await this.redis.set(key, JSON.stringify(cached), 'EX', CACHE_TTL_S);
    }
    const robots = toRobots(origin, cached);
    if (this.local.size >= LOCAL_MAX) this.local.clear();
    this.local.set(origin, { robots, until: Date.now() + LOCAL_TTL_MS });
    return robots;
  }

  private async fetch(origin: string): Promise<Cached> {
    try {
      const { status, text } = await fetchSiteFile(
        `${origin}/robots.txt`,
        { policy: this.policy, resolver: this.resolver },
        MAX_ROBOTS_BYTES,
      );
      if (status >= 200 && status < 300) return { kind: 'file', text };
      if (status === 429 || status >= 500) return { kind: 'unavailable', status };
      return { kind: 'none' };
    } catch (err) {
      this.logger.debug({ origin, err }, 'robots.txt not read');
      return { kind: 'none' };
    }
  }
}

export function toRobots(origin: string, cached: Cached): Robots {
  if (cached.kind === 'unavailable') {
    return {
      check: () => `robots.txt answered ${cached.status}: the site is off limits until it answers`,
      delayMs: null,
      sitemaps: [],
    };
  }
  if (cached.kind === 'none') return { check: () => true, delayMs: null, sitemaps: [] };
  const parsed = robotsParser(`${origin}/robots.txt`, cached.text ?? '');
  const delay = parsed.getCrawlDelay(CRAWLER_TOKEN);
  return {
    check: (url) => parsed.isDisallowed(url, CRAWLER_TOKEN) !== true || 'disallowed by robots.txt',
    delayMs: typeof delay === 'number' && delay > 0 ? delay * 1000 : null,
    sitemaps: parsed.getSitemaps(),
  };
}
