import { Injectable } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { AuthCache } from './auth-cache';
import type { AuthContext } from './auth-context';
import { RateLimitDecision, TokenBucket } from './token-bucket';
import { UsageKeys } from './usage-recorder';

export interface Admitted {
  auth: AuthContext;
  decision: RateLimitDecision;
  /** The usage flush generation, read atomically with the token: see UsageService.summary. */
  usageGeneration: string | null;
}

/**
 * Who is calling and whether they may call now. A known key costs one Redis round trip: the token
 * bucket script also confirms that the cached key is still current and reads the usage generation.
 * Only a key not cached, or cached before a change (revocation, plan change), reads MySQL.
 */
@Injectable()
export class Admission {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly cache: AuthCache,
    private readonly bucket: TokenBucket,
    private readonly usageKeys: UsageKeys,
  ) {}

  async admit(authorization: string | undefined): Promise<Admitted> {
    const keyHash = this.apiKeys.keyHash(authorization);
    const watched = [this.cache.generationKey, this.usageKeys.generation];
    const cached = this.cache.get(keyHash);
    let generation: string | null;
    if (cached) {
      const { auth } = cached;
      const reply = await this.bucket.take(auth.accountId, auth.environment, auth.plan.ratePerMinute, {
        keys: watched,
        expected: cached.generation,
      });
      if (reply.decision) return { auth, decision: reply.decision, usageGeneration: reply.watched[1] };
      // Stale: nothing was taken, and the generation just read precedes the load below.
      generation = reply.watched[0];
    } else {
      generation = await this.cache.generation();
    }
    const auth = await this.apiKeys.resolve(keyHash);
    this.cache.remember(keyHash, auth, generation);
    const reply = await this.bucket.take(auth.accountId, auth.environment, auth.plan.ratePerMinute, {
      keys: watched,
    });
    return { auth, decision: reply.decision!, usageGeneration: reply.watched[1] };
  }
}
