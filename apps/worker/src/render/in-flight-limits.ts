import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { REDIS, RedisKeys } from '@app/persistence';

// Leases in a sorted set scored by expiry: a crashed worker's slots free themselves when the lease
// runs out, so a kill -9 can never wedge an account or a host.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`;

export interface Lease {
  release(): Promise<void>;
}

/**
 * DESIGN.md "Fairness and politeness": an account never has more pages in flight than its plan
 * allows, and no host gets more than the per-host cap, across every worker.
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
    const taken: string[] = [];
    for (const { key, limit } of limits) {
      const full = this.keys.key('inflight', key);
      const now = Date.now();
      const ok = (await this.redis.eval(ACQUIRE, 1, full, now, limit, now + ttlMs, id, ttlMs * 2)) as number;
      if (!ok) {
        await Promise.all(taken.map((k) => this.redis.zrem(k, id)));
        return null;
      }
      taken.push(full);
    }
    return { release: async () => void (await Promise.all(taken.map((k) => this.redis.zrem(k, id)))) };
  }
}
