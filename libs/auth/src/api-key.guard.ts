import { CanActivate, ExecutionContext, Injectable, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiKeysService } from './api-keys.service';
import type { AuthContext } from './auth-context';

const SKIP_API_KEY = 'auth:skip-api-key';

/** Routes that do not take a customer key: health probes, and admin routes (they have their own guard). */
export const SkipApiKey = () => SetMetadata(SKIP_API_KEY, true);

export type AuthedRequest = Request & { auth?: AuthContext };

/** Registered globally, so a new /v1 route is protected unless it opts out. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const skip = this.reflector.getAllAndOverride<boolean>(SKIP_API_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (skip) return true;
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    req.auth = await this.apiKeys.authenticate(req.headers.authorization);
    return true;
  }
}

/** The caller resolved by ApiKeyGuard. */
export const CurrentAuth = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<AuthedRequest>().auth;
  if (!auth) throw new Error('CurrentAuth used on a route that skips the API key guard');
  return auth;
});
