import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { RateLimitedError } from '@app/common';
import type { AuthedRequest } from './api-key.guard';
import { TokenBucket, rateLimitHeaders } from './token-bucket';

/**
 * Registered globally after ApiKeyGuard: every authenticated call takes a token. The headers are
 * set before the handler runs, so 200, 4xx and 429 answers all carry them. Routes that skip the
 * API key (health, admin) have no caller and are not limited.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly bucket: TokenBucket) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const auth = http.getRequest<AuthedRequest>().auth;
    if (!auth) return true;
    const decision = await this.bucket.take(auth.accountId, auth.environment, auth.plan.ratePerMinute);
    http.getResponse<Response>().set(rateLimitHeaders(decision));
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
    return true;
  }
}
