import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { SharedEnv } from '@app/config';
import { type Environment, REDIS, RedisKeys } from '@app/persistence';
import type { PageResult, ScrapeOptions } from '@app/queue-contracts';
import { cacheable, cacheDigest } from './cache-key';

export interface CacheOwner {
  accountId: string;
  environment: Environment;
}

/** A cached page: when it was rendered (epoch ms) and its result as rendered. */
interface Entry {
  at: number;
  result: PageResult;
}

// One round trip, atomic: the entry with its expiry, its place in the owner's index (scored by
// when it was cached), the index's members past the TTL dropped (their entries expired already),
// and past the owner's cap the oldest entries evicted with their members.
// KEYS: entry, index. ARGV: member, entry JSON, ttl ms, now ms, max entries, prefix of entry keys.
const PUT = `
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[4]) - tonumber(ARGV[3]))
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
if over > 0 then
  for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, over - 1)) do
    redis.call('DEL', ARGV[6] .. member)
  end
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
`;

/**
 * Rendered pages kept for reuse (docs/api.md, Cached results), per account and environment, never
 * shared across them. Every successful page of a cacheable request is written; a request with
 * `max_age` is served a page cached at most that long ago. Bounded by RESULT_CACHE_TTL_MS,
 * RESULT_CACHE_MAX_ENTRY_BYTES and RESULT_CACHE_MAX_ENTRIES (per owner).
 */
@Injectable()
export class ResultCache {
  private readonly logger = new Logger(ResultCache.name);

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly env: SharedEnv,
  ) {}

  /**
   * The page cached for these options within their `max_age`, as a hit for `index` and `url`; null
   * when there is none, or the request may not be served from the cache. `options` in clear (the
   * proxy is part of the key).
   */
  async get(
    owner: CacheOwner,
    page: { index: number; url: string },
    options: ScrapeOptions,
  ): Promise<PageResult | null> {
    const started = Date.now();
    const maxAge = options.max_age ?? 0;
    if (maxAge <= 0 || this.env.RESULT_CACHE_TTL_MS === 0 || !cacheable(options)) return null;
    const raw = await this.redis.get(this.entryPrefix(owner) + cacheDigest(page.url, options));
    if (!raw) return null;
    const { at, result } = JSON.parse(raw) as Entry;
    if (started - at > maxAge) return null;
    return {
      ...result,
      index: page.index,
      url: page.url,
      metadata: { ...result.metadata, cache_state: 'hit', cached_at: new Date(at).toISOString() },
      timings: { total_ms: Date.now() - started, render_ms: 0 },
    };
  }

  /**
   * Keeps a rendered page for later requests; a failed page, or one over the entry cap, is not kept.
   * Never throws: the page is rendered and its result must still be stored, whatever Redis does.
   */
  async put(owner: CacheOwner, url: string, options: ScrapeOptions, result: PageResult): Promise<void> {
    const ttl = this.env.RESULT_CACHE_TTL_MS;
    if (result.error || ttl === 0 || !cacheable(options)) return;
    const at = Date.now();
    const json = JSON.stringify({ at, result } satisfies Entry);
    if (Buffer.byteLength(json) > this.env.RESULT_CACHE_MAX_ENTRY_BYTES) return;
    const member = cacheDigest(url, options);
    const prefix = this.entryPrefix(owner);
    const index = this.keys.key('rcache', 'index', owner.accountId, owner.environment);
    try {
      await this.redis.eval(
        PUT,
        2,
        prefix + member,
        index,
        member,
        json,
        ttl,
        at,
        this.env.RESULT_CACHE_MAX_ENTRIES,
        prefix,
      );
    } catch (err) {
      this.logger.warn({ err }, 'result cache: page not kept');
    }
  }

  private entryPrefix({ accountId, environment }: CacheOwner): string {
    return this.keys.key('rcache', 'page', accountId, environment, '');
  }
}
