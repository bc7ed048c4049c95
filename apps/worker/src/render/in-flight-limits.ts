import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { REDIS, RedisKeys } from '@app/persistence';
import { every } from '../maintenance/periodic';

// Leases in a sorted set scored by expiry: a crashed worker's slots free themselves when the lease
// runs out, so a kill -9 can never wedge an account or a host. All the limits in one script: one
// round trip, and a slot is taken under every limit or under none.
// ARGV: now, expiry, lease id, key ttl, then one limit per key. Returns 0 (no slot), or 1 + the
// slots left under the tightest limit once this one is taken.
const ACQUIRE = `
local spare = nil
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
  local left = tonumber(ARGV[4 + i]) - redis.call('ZCARD', key)
  if left <= 0 then return 0 end
  if spare == nil or left - 1 < spare then spare = left - 1 end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('PEXPIRE', key, ARGV[4])
end
return 1 + spare
`;

// Moves each lease still held to its new expiry (a released one is not brought back). ARGV: key
// ttl, then a lease id and its expiry for each key.
const RENEW = `
for i, key in ipairs(KEYS) do
  if redis.call('ZADD', key, 'XX', 'CH', ARGV[2 * i + 1], ARGV[2 * i]) == 1 then
    redis.call('PEXPIRE', key, ARGV[1])
  end
end
`;

export interface Lease {
  /** Slots left under the tightest of the limits with this one taken (0: it was the last). */
  readonly spare: number;
  release(): Promise<void>;
}

/** How long a lease lasts unrenewed, and how often a worker renews the leases it holds. */
export interface LeaseTiming {
  expireMs: number;
  renewMs: number;
}

const LEASE_TIMING = Symbol('LEASE_TIMING');

/**
 * As Bull's job locks: a dead worker's slots free within 20 s, and a main loop blocked for up to
 * 15 s keeps its own.
 */
const DEFAULT_TIMING: LeaseTiming = { expireMs: 20_000, renewMs: 5_000 };

/**
 * Fairness and politeness: an account never has more pages in flight than its plan allows, and no
 * host gets more than the per-host cap, across every worker. A lease lasts `expireMs` and this
 * worker renews the ones it holds every `renewMs`, up to the holder's own limit (`maxMs` at
 * acquire): the slots of a worker that died free in `expireMs`, not at the end of its pages'
 * timeouts, and a lease never released is not kept past its limit.
 */
@Injectable()
export class InFlightLimits implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(InFlightLimits.name);
  private readonly held = new Map<string, { keys: string[]; until: number }>();
  private loop?: { stop: () => Promise<void> };

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    @Optional() @Inject(LEASE_TIMING) private readonly timing: LeaseTiming = DEFAULT_TIMING,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = every(this.timing.renewMs, this.logger, () => this.renew());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
  }

  /** Takes one slot under each limit, or none (null) if any is full; held for `maxMs` at most. */
  async acquire(limits: { key: string; limit: number }[], maxMs: number): Promise<Lease | null> {
    const id = randomUUID();
    const keys = limits.map(({ key }) => this.keys.key('inflight', key));
    const now = Date.now();
    const ok = (await this.redis.eval(
      ACQUIRE,
      keys.length,
      ...keys,
      now,
      now + Math.min(maxMs, this.timing.expireMs),
      id,
      this.keyTtl(),
      ...limits.map(({ limit }) => limit),
    )) as number;
    if (!ok) return null;
    this.held.set(id, { keys, until: now + maxMs });
    return {
      spare: ok - 1,
      release: async () => {
        this.held.delete(id);
        await keys.reduce((m, key) => m.zrem(key, id), this.redis.multi()).exec();
      },
    };
  }

  /** The leases this worker holds, each to a fresh expiry (never past its holder's limit), in one call. */
  private async renew(): Promise<void> {
    const now = Date.now();
    const keys: string[] = [];
    const args: (string | number)[] = [];
    for (const [id, lease] of this.held) {
      if (lease.until <= now) {
        this.held.delete(id);
        continue;
      }
      const expiry = Math.min(now + this.timing.expireMs, lease.until);
      for (const key of lease.keys) {
        keys.push(key);
        args.push(id, expiry);
      }
    }
    if (keys.length) await this.redis.eval(RENEW, keys.length, ...keys, this.keyTtl(), ...args);
  }

  /** A limit's key outlives its last lease, so an idle key goes on its own. */
  private keyTtl(): number {
    return this.timing.expireMs * 2;
  }
}
