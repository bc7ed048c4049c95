import { Inject, Injectable, Optional } from '@nestjs/common';
import Redis from 'ioredis';
import { ApiEnv } from '@app/config';
import { RateLimitedError, UnauthorizedError } from '@app/common';
import { REDIS, RedisKeys } from '@app/persistence';
import { TokenBucket } from './token-bucket';

/** How long a key that authenticated stays exempt from the limit (only a valid key gets here). */
const KNOWN_VALID_MS = 60 * 60 * 1000;
const MAX_KNOWN_VALID = 10_000;

/**
 * Failed authentications per client address (AUTH_FAIL_LIMIT_PER_MIN), so guessing keys costs the
 * database nothing past the limit: a token bucket in Redis per address (shared by replicas), one
 * token per failure. An attempt that would cost a query looks first and gets the 429 instead; a
 * failure past the limit is a 429 too. A key that authenticated within the hour is never slowed,
 * so a customer behind the same address as a guesser keeps working: this process remembers it,
 * and a mark in Redis (under a hash of the key), read in the same step as the look, tells the
 * other replicas.
 */
@Injectable()
export class AuthFailures {
  private readonly perMinute: number | undefined;
  private readonly knownValid = new Map<string, number>();

  constructor(
    private readonly bucket: TokenBucket,
    private readonly keys: RedisKeys,
    @Inject(REDIS) private readonly redis: Redis,
    // Only the API authenticates callers; AuthModule's other user (the account CLI) has no ApiEnv.
    @Optional() env?: ApiEnv,
  ) {
    this.perMinute = env?.AUTH_FAIL_LIMIT_PER_MIN;
  }

  private get limit(): number {
    if (this.perMinute === undefined) throw new Error('AuthFailures needs the API environment (ApiEnv)');
    return this.perMinute;
  }

  /** `id`: a hash of the key, never the key. */
  private isKnownValid(id: string): boolean {
    const until = this.knownValid.get(id);
    if (until !== undefined && until > Date.now()) return true;
    if (until !== undefined) this.knownValid.delete(id);
    return false;
  }

  private markValid(id: string): void {
    this.knownValid.delete(id);
    if (this.knownValid.size >= MAX_KNOWN_VALID) this.knownValid.delete(this.knownValid.keys().next().value!);
    this.knownValid.set(id, Date.now() + KNOWN_VALID_MS);
  }

  /** Throws the 429 when `client` has no failure left (before its key costs a query), unless a
   * replica marked the key valid. */
  private async refuseIfOver(client: string | null, id: string): Promise<void> {
    if (client === null) return;
    const watch = { keys: [this.validKey(id)] };
    const { decision, watched } = await this.bucket.takeFrom(this.bucketKey(client), this.limit, watch, true);
    if (watched[0] !== null) return this.markValid(id);
    if (!decision!.allowed) throw new RateLimitedError(decision!.retryAfterSeconds);
  }

  /**
   * What to throw for an attempt that failed with `err`: a failed authentication takes one of
   * `client`'s tokens, and past the limit it is the 429. Other errors pass unchanged.
   */
  async failed(client: string | null, err: unknown): Promise<unknown> {
    if (client === null || !(err instanceof UnauthorizedError)) return err;
    const { decision } = await this.bucket.takeFrom(this.bucketKey(client), this.limit);
    return decision!.allowed ? err : new RateLimitedError(decision!.retryAfterSeconds);
  }

  /** Runs `attempt` (which may query) under the limit, unless the key `id` is known valid. */
  async attempt<T>(client: string | null, id: string, attempt: () => Promise<T>): Promise<T> {
    if (!this.isKnownValid(id)) await this.refuseIfOver(client, id);
    let result: T;
    try {
      result = await attempt();
    } catch (err) {
      throw await this.failed(client, err);
    }
    if (!this.isKnownValid(id)) {
      this.markValid(id);
      await this.redis.set(this.validKey(id), '1', 'PX', KNOWN_VALID_MS);
    }
    return result;
  }

  private validKey(id: string): string {
    return this.keys.key('authvalid', id);
  }

  private bucketKey(client: string): string {
    return this.keys.key('authfail', client);
  }
}
