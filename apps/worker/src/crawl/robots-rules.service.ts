import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import robotsParser from 'robots-parser';
import { WorkerEnv } from '@app/config';
import {
  AddressPolicy,
  FetchFailedError,
  HOST_RESOLVER,
  HostResolver,
  type UpstreamProxy,
} from '@app/net-guard';
import { REDIS, RedisKeys } from '@app/persistence';
import { fetchSiteFile } from './site-file';

/** The product token matched against `User-agent:` lines; groups for `*` apply otherwise. */
export const CRAWLER_TOKEN = 'ScraperClusterBot';
const CACHE_TTL_S = 3600;
const LOCAL_TTL_MS = 60_000;
const LOCAL_MAX = 1000;
/** How often a worker waiting on another's fetch of the same file looks for it. */
const WAIT_POLL_MS = 100;

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
  /** Not kept: the proxy failed, and the next caller asks again. Never stored. */
  unkept?: true;
}

/**
 * Whose robots.txt a cached copy is: fetched directly, or through which upstream proxy (a site may
 * answer a proxy's address otherwise, so a job never uses a copy fetched another way). The hash
 * is of the proxy's URL, which holds no credentials; keys and logs carry only the hash.
 */
export function proxyIdentity(proxy: UpstreamProxy | undefined): string {
  return proxy ? createHash('sha256').update(proxy.url).digest('hex').slice(0, 16) : 'direct';
}

/**
 * robots.txt per origin and way out (direct or an upstream proxy, `proxyIdentity`), parsed by
 * robots-parser and cached in Redis for an hour (shared by all workers) and in process for a
 * minute. As Google reads it: 4xx means no rules; 5xx or 429 means the whole site is off limits
 * for now; no answer at all (DNS, refused address, past ROBOTS_TIMEOUT_MS) means no rules, and
 * the page fetch then reports the real error; a file over ROBOTS_MAX_BYTES is read as no rules.
 * An upstream proxy failing (PROXY) says nothing of the site, so that "no rules" is not kept: one
 * caller's wrong proxy password would otherwise lift the rules for every job through that proxy. One fetch per origin while it is cached, however many
 * pages and workers ask at once: callers in a process share one promise, and across workers a
 * Redis lock lets one fetch while the others wait for what it stores.
 */
@Injectable()
export class RobotsRules {
  private readonly logger = new Logger(RobotsRules.name);
  private readonly local = new Map<string, { robots: Robots; until: number }>();
  private readonly loading = new Map<string, Promise<Robots>>();
  private readonly maxBytes: number;
  private readonly timeoutMs: number;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly policy: AddressPolicy,
    @Inject(HOST_RESOLVER) private readonly resolver: HostResolver,
    env: WorkerEnv,
  ) {
    this.maxBytes = env.ROBOTS_MAX_BYTES;
    this.timeoutMs = env.ROBOTS_TIMEOUT_MS;
  }

  /** The origin's robots.txt as fetched through `proxy` (the job's pages' own), or directly without. */
  async forOrigin(origin: string, proxy?: UpstreamProxy): Promise<Robots> {
    const via = proxyIdentity(proxy);
    const hit = this.local.get(`${via} ${origin}`);
    if (hit && hit.until > Date.now()) return hit.robots;
    // Callers share a fetch only with the same credentials (a hash, in memory only): one with a
    // wrong password must not hand its failure to another whose fetch would have worked.
    const flight = `${proxy ? credentialsHash(proxy) : via} ${origin}`;
    let loading = this.loading.get(flight);
    if (!loading) {
      loading = this.load(origin, via, proxy).finally(() => this.loading.delete(flight));
      this.loading.set(flight, loading);
    }
    return loading;
  }

  private async load(origin: string, via: string, proxy: UpstreamProxy | undefined): Promise<Robots> {
    const cached = await this.cached(origin, via, proxy);
    const robots = toRobots(origin, cached);
    if (cached.unkept) return robots;
    if (this.local.size >= LOCAL_MAX) this.local.clear();
    this.local.set(`${via} ${origin}`, { robots, until: Date.now() + LOCAL_TTL_MS });
    return robots;
  }

  /** The stored file, or the one this worker fetches under the lock, or the one another stores. */
  private async cached(origin: string, via: string, proxy: UpstreamProxy | undefined): Promise<Cached> {
    const key = this.keys.key('robots', via, origin);
    const lock = this.keys.key('robots-lock', via, origin);
    const token = randomUUID();
    // The lock outlives a fetch (its time cap), so a worker that died holding it delays the rest once.
    const lockMs = this.timeoutMs + 5000;
    for (;;) {
      const stored = await this.redis.get(key);
      if (stored) return JSON.parse(stored) as Cached;
      if (await this.redis.set(lock, token, 'PX', lockMs, 'NX')) {
        try {
          const cached = await this.fetch(origin, via, proxy);
          if (!cached.unkept) await this.redis.set(key, JSON.stringify(cached), 'EX', CACHE_TTL_S);
          return cached;
        } finally {
          await this.redis.eval(RELEASE_LUA, 1, lock, token);
        }
      }
      await sleep(WAIT_POLL_MS);
    }
  }

  private async fetch(origin: string, via: string, proxy: UpstreamProxy | undefined): Promise<Cached> {
    try {
      const { status, text } = await fetchSiteFile(
        `${origin}/robots.txt`,
        { policy: this.policy, resolver: this.resolver, upstream: proxy },
        this.maxBytes,
        this.timeoutMs,
      );
      if (status >= 200 && status < 300) return { kind: 'file', text };
      if (status === 429 || status >= 500) return { kind: 'unavailable', status };
      return { kind: 'none' };
    } catch (err) {
      this.logger.debug({ origin, via, err }, 'robots.txt not read');
      return err instanceof FetchFailedError && err.pageCode === 'PROXY'
        ? { kind: 'none', unkept: true }
        : { kind: 'none' };
    }
  }
}

function credentialsHash({ url, username, password }: UpstreamProxy): string {
  return createHash('sha256')
    .update(`${url}\u0000${username ?? ''}\u0000${password ?? ''}`)
    .digest('hex');
}

/** Deletes the lock only if it is still this worker's (it may have expired and been taken). */
const RELEASE_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

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
