import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkerEnv } from '@app/config';
import { AddressPolicy, HOST_RESOLVER, HostResolver, type UpstreamProxy } from '@app/net-guard';
import { REDIS, RedisKeys } from '@app/persistence';
import { readRobotsFile, toRobots, type Robots, type RobotsFile as Cached } from '@app/site';

const CACHE_TTL_S = 3600;
const LOCAL_TTL_MS = 60_000;
const LOCAL_MAX = 1000;
/** How often a worker waiting on another's fetch of the same file looks for it. */
const WAIT_POLL_MS = 100;

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
 * minute, read as `readRobotsFile` (libs/site) says. A "no rules" read because the upstream proxy
 * failed is not kept: one caller's wrong proxy password would otherwise lift the rules for every
 * job through that proxy. One fetch per origin while it is cached, however many pages and workers
 * ask at once: callers in a process share one promise, and across workers a Redis lock lets one
 * fetch while the others wait for what it stores.
 */
@Injectable()
export class RobotsRules {
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
          const cached = await this.fetch(origin, proxy);
          if (!cached.unkept) await this.redis.set(key, JSON.stringify(cached), 'EX', CACHE_TTL_S);
          return cached;
        } finally {
          await this.redis.eval(RELEASE_LUA, 1, lock, token);
        }
      }
      await sleep(WAIT_POLL_MS);
    }
  }

  private async fetch(origin: string, proxy: UpstreamProxy | undefined): Promise<Cached> {
    const net = { policy: this.policy, resolver: this.resolver, upstream: proxy };
    return readRobotsFile(origin, net, this.maxBytes, this.timeoutMs);
  }
}

function credentialsHash({ url, username, password }: UpstreamProxy): string {
  return createHash('sha256')
    .update(`${url}\u0000${username ?? ''}\u0000${password ?? ''}`)
    .digest('hex');
}

/** Deletes the lock only if it is still this worker's (it may have expired and been taken). */
const RELEASE_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
