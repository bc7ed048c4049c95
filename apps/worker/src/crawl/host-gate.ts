import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS, RedisKeys } from '@app/persistence';

// Per host: `next` is the earliest time the next fetch may start (the last fetch + delay), and
// `horizon` the end of the slots already booked. A newcomer books the slot after the horizon and is
// told to come back then; a booked caller goes as soon as `next` allows. Fetches are thus spaced by
// the delay whatever the number of workers, and waiting pages do not poll: each wakes once, at its
// slot. Redis's clock, so workers' clocks need not agree.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local delay, booked = tonumber(ARGV[1]), ARGV[2] == '1'
local g = redis.call('HMGET', KEYS[1], 'next', 'horizon')
local nxt, horizon = tonumber(g[1] or '0'), tonumber(g[2] or '0')
if now >= nxt and (booked or now >= horizon) then
  redis.call('HSET', KEYS[1], 'next', now + delay, 'horizon', math.max(horizon, now + delay))
  redis.call('PEXPIRE', KEYS[1], math.max(horizon, now + delay) - now + 60000)
  return 0
end
if booked then return nxt - now end
local slot = math.max(now, horizon, nxt)
redis.call('HSET', KEYS[1], 'horizon', slot + delay)
redis.call('PEXPIRE', KEYS[1], slot + delay - now + 60000)
return slot - now
`;

/** The delay between fetches of one host (Crawl-delay or config), shared by all workers. */
@Injectable()
export class HostGate {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** 0: fetch now. Else come back after this many ms, as a booked caller. */
  async take(host: string, delayMs: number, booked: boolean): Promise<number> {
    return (await this.redis.eval(
      TAKE,
      1,
      this.keys.key('host-gate', host),
      delayMs,
      booked ? 1 : 0,
    )) as number;
  }
}
