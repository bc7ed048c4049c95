import { Inject, Injectable } from '@nestjs/common';
import Redis, { Result } from 'ioredis';
import { UnavailableError } from '@app/common';
import { Environment, REDIS, RedisKeys } from '@app/persistence';

/**
 * The rate limit (docs/decisions.md, Rate limit): one token bucket per account and environment,
 * capacity = the plan's per-minute limit, refilled continuously at limit/60 per second, decided
 * atomically in Redis on the server's clock (so API replicas with skewed clocks agree).
 *
 * Exact integer arithmetic: one token is 60,000,000 units and the bucket gains `capacity` units a
 * microsecond, i.e. `capacity` tokens a minute. Every value stays below 2^53, so Lua's doubles hold
 * them exactly. A missing key is a full bucket, so the key expires once it would be full again.
 * Returns {allowed, remaining (floor), seconds until full (ceil), seconds until one token (>= 1)},
 * then the values of the watched keys (KEYS[2..], '' when missing), read in the same atomic step so a
 * caller can check its caches without a round trip of its own. With ARGV[2] = '1', KEYS[2] must hold
 * ARGV[3]: otherwise nothing is taken and the first value is -1. With ARGV[4] = '0' it only looks:
 * whether a token is there, nothing taken or written.
 */
export const TOKEN_BUCKET_LUA = `
local watched = {}
for i = 2, #KEYS do
  watched[i - 1] = redis.call('GET', KEYS[i]) or ''
end
if ARGV[2] == '1' and watched[1] ~= ARGV[3] then
  return {-1, 0, 0, 0, unpack(watched)}
end
local capacity = tonumber(ARGV[1])
local unit = 60000000
local full = capacity * unit
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local level = full
local state = redis.call('HMGET', KEYS[1], 'level', 'at')
if state[1] then
  -- A clock stepping back refills nothing; after one minute any bucket is full.
  local elapsed = math.min(math.max(now - tonumber(state[2]), 0), unit)
  level = math.min(full, tonumber(state[1]) + elapsed * capacity)
end
local allowed = 0
local take = ARGV[4] ~= '0'
if level >= unit then
  if take then level = level - unit end
  allowed = 1
end
local missing = full - level
if take then
  redis.call('HSET', KEYS[1], 'level', level, 'at', now)
  redis.call('PEXPIRE', KEYS[1], math.ceil(missing / capacity / 1000) + 1000)
end
local retry = 0
if allowed == 0 then
  retry = math.max(1, math.ceil((unit - level) / capacity / 1000000))
end
return {allowed, math.floor(level / unit), math.ceil(missing / capacity / 1000000), retry, unpack(watched)}
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    takeRateLimitToken(
      numberOfKeys: number,
      ...keysAndArgs: (string | number)[]
    ): Result<[number, number, number, number, ...string[]], Context>;
  }
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Tokens per minute, the bucket's capacity. */
  limit: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one token is back; 0 when the request was allowed. */
  retryAfterSeconds: number;
}

/** Keys read atomically with a take; `expected`, when given, is what the first one must hold. */
export interface Watch {
  keys: string[];
  expected?: string | null;
}

export interface BucketReply {
  /** Null when the first watched key no longer held `expected`: no token was taken. */
  decision: RateLimitDecision | null;
  /** The watched keys' values, in order (null for a missing key). */
  watched: (string | null)[];
}

@Injectable()
export class TokenBucket {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {
    // EVALSHA, with EVAL when the script cache was flushed (ioredis does the fallback).
    redis.defineCommand('takeRateLimitToken', { lua: TOKEN_BUCKET_LUA });
  }

  /**
   * Takes one token if there is one. The plan is passed on every call, so a plan change applies at
   * once. `watch` lets the caller validate its caches in the same round trip.
   */
  async take(
    accountId: string,
    environment: Environment,
    perMinute: number,
    watch: Watch = { keys: [] },
  ): Promise<BucketReply> {
    return this.takeFrom(this.keys.key('ratelimit', accountId, environment), perMinute, watch);
  }

  /** take() on any bucket key; with `peek`, only whether a token is there (nothing taken). */
  async takeFrom(
    key: string,
    perMinute: number,
    watch: Watch = { keys: [] },
    peek = false,
  ): Promise<BucketReply> {
    if (!Number.isInteger(perMinute) || perMinute < 1) {
      throw new Error(`a plan's per-minute limit must be a positive integer, got ${perMinute}`);
    }
    const check = watch.expected === undefined ? '0' : '1';
    let reply: [number, number, number, number, ...string[]];
    try {
      reply = await this.redis.takeRateLimitToken(
        1 + watch.keys.length,
        key,
        ...watch.keys,
        perMinute,
        check,
        watch.expected ?? '',
        peek ? '0' : '1',
      );
    } catch (err) {
      // Without Redis the API cannot count: refuse with 503 rather than serve unlimited.
      throw new UnavailableError(`rate limiter unavailable: ${(err as Error).message}`);
    }
    const [allowed, remaining, resetSeconds, retryAfterSeconds, ...values] = reply;
    const watched = values.map((v) => (v === '' ? null : v));
    if (allowed === -1) return { decision: null, watched };
    return {
      decision: { allowed: allowed === 1, limit: perMinute, remaining, resetSeconds, retryAfterSeconds },
      watched,
    };
  }
}

/** The policy's name in the IETF fields: one policy, the per-minute bucket. */
const RATE_LIMIT_POLICY = 'per-minute';

/**
 * The response headers of a decision: the spec's x-ratelimit-* (reset in seconds until the bucket is
 * full) and the IETF draft-ietf-httpapi-ratelimit-headers-11 pair. On a refusal the effective window
 * `t` is the retry-after, as the draft wants Retry-After never earlier than the window's end.
 */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  const window = d.allowed ? d.resetSeconds : d.retryAfterSeconds;
  return {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(d.resetSeconds),
    'ratelimit-policy': `"${RATE_LIMIT_POLICY}";q=${d.limit};w=60`,
    ratelimit: `"${RATE_LIMIT_POLICY}";r=${d.remaining};t=${window}`,
  };
}
