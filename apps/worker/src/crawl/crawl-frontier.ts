import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { REDIS, RedisKeys } from '@app/persistence';

/** A discovered URL offered to the frontier: to fetch (`fetch`) or to report unfetched (`skip`). */
export interface Candidate {
  key: string;
  kind: 'fetch' | 'skip';
}

/** Its place in the crawl: `idx` (-1: refused, the limit is reached) and whether this call admitted it. */
export interface Admission {
  idx: number;
  isNew: boolean;
}

/** What a frontier is rebuilt from: the crawl's page rows in MySQL. */
export interface FrontierRecord {
  fetched: number;
  skipped: number;
  maxIdx: number;
  /** Dedupe key -> idx of every row. */
  seen: Map<string, number>;
}

// Admission is one script, so `limit` holds exactly whatever the number of workers racing: each URL
// is looked up, counted and numbered atomically. A missing meta hash means the frontier is new or
// Redis lost it: the caller rebuilds it from MySQL and tries again.
const ADMIT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {-2} end
local m = redis.call('HMGET', KEYS[1], 'limit', 'skip_cap', 'fetched', 'skipped', 'next_idx')
local limit, skipCap, fetched, skipped, nextIdx =
  tonumber(m[1]), tonumber(m[2]), tonumber(m[3]), tonumber(m[4]), tonumber(m[5])
local out = {0}
for i = 2, #ARGV, 2 do
  local key, kind = ARGV[i], ARGV[i + 1]
  local idx = redis.call('HGET', KEYS[2], key)
  if idx then
    out[#out + 1] = tonumber(idx); out[#out + 1] = 0
  elseif (kind == 'f' and fetched < limit) or (kind == 's' and skipped < skipCap) then
    if kind == 'f' then fetched = fetched + 1 else skipped = skipped + 1 end
    redis.call('HSET', KEYS[2], key, nextIdx)
    out[#out + 1] = nextIdx; out[#out + 1] = 1
    nextIdx = nextIdx + 1
  else
    out[#out + 1] = -1; out[#out + 1] = 0
  end
end
redis.call('HSET', KEYS[1], 'fetched', fetched, 'skipped', skipped, 'next_idx', nextIdx)
redis.call('EXPIRE', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[1])
return out
`;

/** Kept after the last admission; an ended crawl's keys are deleted at once. */
const TTL_S = 7 * 24 * 3600;
const SEEN_PER_COMMAND = 1000;
/**
 * A rebuilt frontier numbers on past this gap: a worker that was admitted an idx by the lost Redis
 * and has not stored its row yet can never collide with a new admission.
 */
export const REBUILD_IDX_GAP = 100_000;
const REBUILD_LOCK_MS = 60_000;
/**
 * Before reading the rows, a rebuild lets admissions the lost Redis made just before it went land
 * in MySQL (their rows are stored right after): otherwise they would not count toward `limit`.
 */
const REBUILD_SETTLE_MS = 1000;

export class FrontierLostError extends Error {
  constructor(jobId: string) {
    super(`the frontier of ${jobId} is not in Redis`);
  }
}

/**
 * The Redis side of a crawl's frontier (MySQL holds its pages; docs/decisions.md, Crawl): the seen
 * hash (dedupe key -> idx) and the counters behind `limit` and the discovery order. Keys carry the
 * job id as a hash tag, so one script touches one cluster slot.
 */
@Injectable()
export class CrawlFrontier {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  private key(jobId: string, part: 'meta' | 'seen' | 'rebuild'): string {
    return this.keys.key('crawl', `{${jobId}}`, part);
  }

  /** One admission per candidate, in order; throws FrontierLostError when there is no frontier. */
  async admit(jobId: string, candidates: Candidate[]): Promise<Admission[]> {
    if (!candidates.length) return [];
    const args = candidates.flatMap((c) => [c.key, c.kind === 'fetch' ? 'f' : 's']);
    const out = (await this.redis.eval(
      ADMIT,
      2,
      this.key(jobId, 'meta'),
      this.key(jobId, 'seen'),
      TTL_S,
      ...args,
    )) as number[];
    if (out[0] === -2) throw new FrontierLostError(jobId);
    return candidates.map((_, i) => ({ idx: out[1 + 2 * i], isNew: out[2 + 2 * i] === 1 }));
  }

  /** Marks another spelling of a page (its canonical or final URL) as seen; false if it already was. */
  async alias(jobId: string, key: string, idx: number): Promise<boolean> {
    return (await this.redis.hsetnx(this.key(jobId, 'seen'), key, idx)) === 1;
  }

  /**
   * Rebuilds a lost (or not yet created) frontier from the crawl's rows, under a lock so that one
   * worker does it. The meta hash is written last: admissions wait until the seen hash is whole.
   * Returns false when another worker holds the lock (try the admission again shortly).
   */
  async rebuild(jobId: string, limit: number, read: () => Promise<FrontierRecord>): Promise<boolean> {
    const lock = this.key(jobId, 'rebuild');
    if ((await this.redis.set(lock, '1', 'PX', REBUILD_LOCK_MS, 'NX')) !== 'OK') return false;
    try {
      if (await this.redis.exists(this.key(jobId, 'meta'))) return true;
      // A new crawl (nothing admitted yet) has nothing in flight to wait for.
      let record = await read();
      if (record.seen.size > 1) {
        await sleep(REBUILD_SETTLE_MS);
        record = await read();
      }
      const seenKey = this.key(jobId, 'seen');
      const entries = [...record.seen];
      const pipeline = this.redis.pipeline().del(seenKey);
      for (let i = 0; i < entries.length; i += SEEN_PER_COMMAND) {
        pipeline.hset(seenKey, ...entries.slice(i, i + SEEN_PER_COMMAND).flat());
      }
      // Only the start page's row: a new crawl, where nothing can be in flight.
      const nextIdx = record.maxIdx + 1 + (record.seen.size > 1 ? REBUILD_IDX_GAP : 0);
      pipeline
        .hset(this.key(jobId, 'meta'), {
          limit,
          skip_cap: limit,
          fetched: record.fetched,
          skipped: record.skipped,
          next_idx: nextIdx,
        })
        .expire(seenKey, TTL_S)
        .expire(this.key(jobId, 'meta'), TTL_S);
      const results = await pipeline.exec();
      const failed = results?.find(([err]) => err)?.[0];
      if (failed) throw failed;
      return true;
    } finally {
      await this.redis.del(lock);
    }
  }

  /** An ended crawl needs no frontier. */
  async drop(jobId: string): Promise<void> {
    await this.redis.del(this.key(jobId, 'meta'), this.key(jobId, 'seen'));
  }
}
