import { Injectable } from '@nestjs/common';
import { UnauthorizedError } from '@app/common';
import { AuthFailures } from './auth-failures';
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
 * Only a key not cached, or cached before a change (revocation, plan change), reads MySQL; a key
 * MySQL did not know a moment ago, and a malformed one, read nothing. Failures count against the
 * client address (AuthFailures), which is null where there is none to count.
 */
@Injectable()
export class Admission {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly cache: AuthCache,
    private readonly bucket: TokenBucket,
    private readonly usageKeys: UsageKeys,
    private readonly failures: AuthFailures,
  ) {}

  async admit(authorization: string | undefined, client: string | null = null): Promise<Admitted> {
    let keyHash: string;
    try {
      keyHash = this.apiKeys.keyHash(authorization);
    } catch (err) {
      throw await this.failures.failed(client, err);
    }
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
    const auth = await this.failures.attempt(client, keyHash, async () => {
      if (this.cache.isUnknown(keyHash, generation)) throw new UnauthorizedError();
      try {
        return await this.apiKeys.resolve(keyHash);
      } catch (err) {
        if (err instanceof UnauthorizedError) this.cache.rememberUnknown(keyHash, generation);
        throw err;
      }
    });
    this.cache.remember(keyHash, auth, generation);
    const reply = await this.bucket.take(auth.accountId, auth.environment, auth.plan.ratePerMinute, {
      keys: watched,
    });
    return { auth, decision: reply.decision!, usageGeneration: reply.watched[1] };
  }
}
