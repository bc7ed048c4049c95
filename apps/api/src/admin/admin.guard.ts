import {
  CanActivate,
  ExecutionContext,
  Injectable,
  UseGuards,
  UseInterceptors,
  applyDecorators,
} from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiEnv } from '@app/config';
import { UnauthorizedError } from '@app/common';
import { AdminIdentity, AdminsService, AuthFailures, SkipApiKey } from '@app/auth';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ADMIN_AUTH, ApiErrors } from '../common/openapi';
import { AuditInterceptor } from './audit.interceptor';
import type { AdminRequest } from './admin-request';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** ADMIN_TOKEN acts as this identity: it bootstraps the first admin and stays usable after. */
export const BOOTSTRAP_ADMIN: AdminIdentity = { id: 'bootstrap', email: null };

/**
 * Admin routes take an admin key (`osk_admin_…`) or ADMIN_TOKEN (compared in constant time) as
 * their bearer; never a customer key. Every failure is the same 401 as on /v1, and counts against
 * the client address as there (AuthFailures). The API's onRequest hook runs identify() before the
 * body is read; the guard then finds the admin on the request.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly bootstrap: Buffer | null;

  constructor(
    env: ApiEnv,
    private readonly admins: AdminsService,
    private readonly failures: AuthFailures,
  ) {
    this.bootstrap = env.ADMIN_TOKEN ? digest(env.ADMIN_TOKEN) : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.identify(context.switchToHttp().getRequest<AdminRequest>());
    return true;
  }

  async identify(req: AdminRequest): Promise<AdminIdentity> {
    if (req.admin) return req.admin;
    const token = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token) throw await this.failures.failed(req.ip, new UnauthorizedError());
    const hashed = digest(token);
    if (this.bootstrap && timingSafeEqual(hashed, this.bootstrap)) return (req.admin = BOOTSTRAP_ADMIN);
    return (req.admin = await this.failures.attempt(req.ip, hashed.toString('hex'), () =>
      this.admins.authenticate(token),
    ));
  }
}

/** Every admin controller: admin bearer instead of a customer key, and its writes audited. */
export const AdminRoute = () =>
  applyDecorators(
    SkipApiKey(),
    UseGuards(AdminGuard),
    UseInterceptors(AuditInterceptor),
    ApiTags('admin'),
    ApiBearerAuth(ADMIN_AUTH),
    ApiErrors(400, 401, 404, 429, 503),
  );
