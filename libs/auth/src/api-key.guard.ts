import { CanActivate, ExecutionContext, Injectable, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimitedError } from '@app/common';
import { Admission } from './admission';
import type { AuthContext } from './auth-context';
import { rateLimitHeaders } from './token-bucket';

const SKIP_API_KEY = 'auth:skip-api-key';

/**
 * Routes that do not take a customer key, and so are not rate limited: health probes, and admin
 * routes (they have their own guard).
 */
export const SkipApiKey = () => SetMetadata(SKIP_API_KEY, true);

export type AuthedRequest = FastifyRequest & { auth?: AuthContext; usageGeneration?: string | null };

/**
 * Registered globally, so a new /v1 route is protected unless it opts out. Resolves the caller and
 * takes its rate-limit token (every authenticated call takes one, whatever its answer). The headers
 * are set before the handler runs, so 200, 4xx and 429 answers all carry them. The API's onRequest
 * hook runs admitRequest before the body is read; the guard then finds the caller on the request.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly admission: Admission,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const skip = this.reflector.getAllAndOverride<boolean>(SKIP_API_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (skip) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<AuthedRequest>();
    if (!req.auth) await this.admitRequest(req, http.getResponse<FastifyReply>());
    return true;
  }

  /** Admits the caller onto `req`, failures counted against the client address (`req.ip`). */
  async admitRequest(req: AuthedRequest, reply: FastifyReply): Promise<void> {
    const { auth, decision, usageGeneration } = await this.admission.admit(req.headers.authorization, req.ip);
    void reply.headers(rateLimitHeaders(decision));
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
    req.auth = auth;
    req.usageGeneration = usageGeneration;
  }
}

const authedRequest = (ctx: ExecutionContext): AuthedRequest => {
  const req = ctx.switchToHttp().getRequest<AuthedRequest>();
  if (!req.auth) throw new Error('used on a route that skips the API key guard');
  return req;
};

/** The caller resolved by ApiKeyGuard. */
export const CurrentAuth = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthContext => authedRequest(ctx).auth!,
);

/** The usage flush generation ApiKeyGuard read with the caller's token (for UsageService.summary). */
export const CurrentUsageGeneration = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): string | null => authedRequest(ctx).usageGeneration ?? null,
);
