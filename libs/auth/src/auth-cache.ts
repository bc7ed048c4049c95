import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { UnavailableError } from '@app/common';
import { REDIS, RedisKeys } from '@app/persistence';
import type { AuthContext } from './auth-context';

export interface CachedAuth {
  auth: AuthContext;
  /** The generation token read before the key was loaded from MySQL. */
  generation: string | null;
}

interface Entry extends CachedAuth {
  expiresAt: number;
}

/** A safety net for changes made behind the API's back (SQL by hand): they apply within this time. */
const TTL_MS = 5000;
const MAX_ENTRIES = 10_000;
/**
 * Unknown keys are remembered briefly and only under the generation token they were read with, so
 * a key that starts working (an account reactivated on another replica) works on its next request.
 */
const UNKNOWN_TTL_MS = 10_000;
const MAX_UNKNOWN = 10_000;

/**
 * Resolved API keys, kept in-process for a few seconds so a request does not wait on the key join in
 * MySQL. An entry is only good while one generation token in Redis still holds the value read before
 * the entry was loaded; the caller checks that in the same atomic step as the rate-limit token
 * (TokenBucket's watch), so the check costs no round trip of its own. Whatever can take access away
 * or change limits (a revoked key, a suspended account, a plan change) calls invalidate() before it
 * answers, so the next request on any replica reads MySQL again: a revoked key stops working on the
 * very next request.
 */
@Injectable()
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private readonly unknown = new Map<string, { generation: string | null; expiresAt: number }>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** The entry of a key hash, unless expired; still to be checked against the generation. */
  get(keyHash: string): CachedAuth | undefined {
    const entry = this.entries.get(keyHash);
    if (entry && entry.expiresAt > Date.now()) return entry;
    if (entry) this.entries.delete(keyHash);
    return undefined;
  }

  /** `generation` must have been read before `auth` was loaded, so a racing change marks it stale. */
  remember(keyHash: string, auth: AuthContext, generation: string | null): void {
    this.entries.delete(keyHash);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyHash, { auth, generation, expiresAt: Date.now() + TTL_MS });
  }

  /** True when MySQL knew no such key a moment ago, under the generation token read now. */
  isUnknown(keyHash: string, generation: string | null): boolean {
    const entry = this.unknown.get(keyHash);
    if (entry && entry.expiresAt > Date.now() && entry.generation === generation) return true;
    if (entry) this.unknown.delete(keyHash);
    return false;
  }

  /** `generation` must have been read before MySQL said the key was unknown. */
  rememberUnknown(keyHash: string, generation: string | null): void {
    this.unknown.delete(keyHash);
    if (this.unknown.size >= MAX_UNKNOWN) this.unknown.delete(this.unknown.keys().next().value!);
    this.unknown.set(keyHash, { generation, expiresAt: Date.now() + UNKNOWN_TTL_MS });
  }

  /** The current generation token, for a load that has no cached entry to check. */
  async generation(): Promise<string | null> {
    try {
      return await this.redis.get(this.generationKey);
    } catch (err) {
      // The bucket needs Redis as well: answer 503 as the limiter does.
      throw new UnavailableError(`auth cache unavailable: ${(err as Error).message}`);
    }
  }

  /** Makes every replica read keys, accounts and plans from MySQL again on their next request. */
  async invalidate(): Promise<void> {
    this.entries.clear();
    this.unknown.clear();
    // A random token, not a counter: it cannot come back to an old value after Redis is flushed.
    await this.redis.set(this.generationKey, randomUUID());
  }

  get generationKey(): string {
    return this.keys.key('auth', 'generation');
  }
}
