import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AdminIdentity } from '@app/auth';

export type AdminRequest = FastifyRequest & { admin?: AdminIdentity };

/** The admin resolved by AdminGuard. */
export const CurrentAdmin = createParamDecorator((_data: unknown, ctx: ExecutionContext): AdminIdentity => {
  const admin = ctx.switchToHttp().getRequest<AdminRequest>().admin;
  if (!admin) throw new Error('CurrentAdmin used on a route without AdminGuard');
  return admin;
});
