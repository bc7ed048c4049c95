import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/common';
import type { AuthContext } from '@app/auth';
import { ApiEnv, sessionCap } from '@app/config';
import { SessionStore, type SessionView } from '@app/sessions';

/** The API's side of sessions (docs/api.md, Sessions): opened by the requests that name them. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly store: SessionStore,
    private readonly env: ApiEnv,
  ) {}

  /** A request names `sessionId`: kept alive, or started within the plan's cap (409 past it). */
  async open(auth: AuthContext, sessionId: string | undefined): Promise<void> {
    if (sessionId === undefined) return;
    const cap = sessionCap(this.env, auth.plan.name);
    await this.store.open(auth, sessionId, cap, this.env.SESSION_IDLE_MINUTES * 60_000);
  }

  list(auth: AuthContext): Promise<SessionView[]> {
    return this.store.list(auth);
  }

  async forget(auth: AuthContext, sessionId: string): Promise<void> {
    if (!(await this.store.forget(auth, sessionId))) throw new NotFoundError('Session not found');
  }
}
