import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable, mergeMap } from 'rxjs';
import { AuditLog } from './audit-log.service';
import type { AdminRequest } from './admin-request';

const AUDITED = 'admin:audited';

interface AuditSpec {
  action: string;
  /**
   * The target when it is not the route's `:id`: another route parameter's name, or what to take
   * from the answer (e.g. the id a creation returns).
   */
  target?: string | ((result: unknown) => string);
}

/** Names an admin write for the audit log; a write without it fails (never an unaudited write). */
export const Audited = (action: string, target?: AuditSpec['target']) =>
  SetMetadata(AUDITED, { action, target } satisfies AuditSpec);

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Writes one audit entry per successful admin write, after the handler and before the answer, so
 * an answer the admin sees always has its entry. A failed write (4xx) changed nothing: no entry.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditLog,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<AdminRequest>();
    if (READS.has(req.method)) return next.handle();
    const spec = this.reflector.get<AuditSpec | undefined>(AUDITED, context.getHandler());
    if (!spec) throw new Error(`admin write ${req.method} ${req.url} has no @Audited action`);
    return next.handle().pipe(
      mergeMap(async (result: unknown) => {
        await this.audit.record({
          adminId: req.admin!.id,
          action: spec.action,
          target: targetOf(spec, result, req),
          details: details(req),
          requestId: req.id,
        });
        return result;
      }),
    );
  }
}

function targetOf(spec: AuditSpec, result: unknown, req: AdminRequest): string | null {
  if (typeof spec.target === 'function') return spec.target(result);
  return (req.params as Record<string, string | undefined>)[spec.target ?? 'id'] ?? null;
}

/** The parameters of the write: route params, query and body (admin bodies carry no secrets). */
function details(req: AdminRequest): Record<string, unknown> | null {
  const all = {
    ...(req.params as object),
    ...(req.query as object),
    ...((req.body as object | undefined) ?? {}),
  };
  return Object.keys(all).length ? all : null;
}
