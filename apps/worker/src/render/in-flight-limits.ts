import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { REDIS, RedisKeys } from '@app/persistence';

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

export interface Lease {
  /** Slots left under the tightest of the limits with this one taken (0: it was the last). */
  readonly spare: number;
  release(): Promise<void>;
}

/**
 * Fairness and politeness: an account never has more pages in flight than its plan allows, and no
 * host gets more than the per-host cap, across every worker.
 */
@Injectable()
export class InFlightLimits {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Takes one slot under each limit, or none (null) if any is full. */
  async acquire(limits: { key: string; limit: number }[], ttlMs: number): Promise<Lease | null> {
    const id = randomUUID();
    const keys = limits.map(({ key }) => this.keys.key('inflight', key));
    const now = Date.now();
    const ok = (await this.redis.eval(
      ACQUIRE,
      keys.length,
      ...keys,
      now,
      now + ttlMs,
      id,
      ttlMs * 2,
      ...limits.map(({ limit }) => limit),
    )) as number;
    if (!ok) return null;
    return {
      spare: ok - 1,
      release: async () => void (await keys.reduce((m, key) => m.zrem(key, id), this.redis.multi()).exec()),
    };
  }
}
