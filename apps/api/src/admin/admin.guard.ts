import { CanActivate, ExecutionContext, Injectable, UseGuards, applyDecorators } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { ApiEnv } from '@app/config';
import { UnauthorizedError } from '@app/common';
import { SkipApiKey } from '@app/auth';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Admin routes take ADMIN_TOKEN as their bearer, compared in constant time; never a customer key. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(env: ApiEnv) {
    this.expected = env.ADMIN_TOKEN ? digest(env.ADMIN_TOKEN) : null;
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const token = /^Bearer (\S+)$/i.exec(header)?.[1];
    if (!this.expected || !token || !timingSafeEqual(digest(token), this.expected))
      throw new UnauthorizedError();
    return true;
  }
}

export const AdminRoute = () => applyDecorators(SkipApiKey(), UseGuards(AdminGuard));
