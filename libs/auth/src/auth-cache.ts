import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { REDIS, RedisKeys } from '@app/persistence';
import type { AuthContext } from './auth-context';

interface Entry {
  auth: AuthContext;
  generation: string | null;
  expiresAt: number;
}

/** A safety net for changes made behind the API's back (SQL by hand): they apply within this time. */
const TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

/**
 * Resolved API keys, kept in-process for a few seconds so a request does not wait on the key join in
 * MySQL. Every use compares the entry with one generation token in Redis (a GET, far cheaper than
 * the query); whatever can take access away or change limits (a revoked key, a suspended account, a
 * plan change) calls invalidate() before it answers, so the next request on any replica reads MySQL
 * again: a revoked key stops working on the very next request.
 */
@Injectable()
export class AuthCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** The cached AuthContext of a key hash while still current, else load()'s, remembered. */
  async resolve(keyHash: string, load: () => Promise<AuthContext>): Promise<AuthContext> {
    let generation: string | null;
    try {
      generation = await this.redis.get(this.generationKey);
    } catch {
      // Without Redis nothing can be confirmed current: read MySQL and remember nothing.
      return load();
    }
    const entry = this.entries.get(keyHash);
    if (entry && entry.generation === generation && entry.expiresAt > Date.now()) return entry.auth;
    // The generation was read before the load: a change racing with it leaves this entry stale-marked.
    const auth = await load();
    this.entries.delete(keyHash);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyHash, { auth, generation, expiresAt: Date.now() + TTL_MS });
    return auth;
  }

  /** Makes every replica read keys, accounts and plans from MySQL again on their next request. */
  async invalidate(): Promise<void> {
    this.entries.clear();
    // A random token, not a counter: it cannot come back to an old value after Redis is flushed.
    await this.redis.set(this.generationKey, randomUUID());
  }

  private get generationKey(): string {
    return this.keys.key('auth', 'generation');
  }
}
