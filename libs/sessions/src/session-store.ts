import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ConflictError, UnavailableError } from '@app/common';
import { type Environment, SecretBox, type Written, executePrepared } from '@app/persistence';
import { EMPTY_SESSION, type SessionState } from '@app/queue-contracts';

export interface SessionOwner {
  accountId: string;
  environment: Environment;
}

/** A session as GET /v1/sessions lists it: never its cookies or storage. */
export interface SessionView {
  id: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
}

/**
 * Past this much JSON a session's localStorage is left out of what is saved (its cookies kept),
 * and past it with cookies alone the state is not saved: a page cannot make a row of any size.
 */
export const MAX_SESSION_STATE_BYTES = 1024 * 1024;

/** How long a request waits for another one starting a session of the same owner. */
const LOCK_WAIT_SECONDS = 10;

/**
 * The sessions table and every statement on it (docs/api.md, Sessions). The API opens a session
 * when a request names it (counted against the plan's cap), lists and forgets; the worker loads a
 * session's state before a page and saves it after, which also keeps it alive. State is sealed for
 * its account, environment and id, so a row copied elsewhere does not open.
 */
@Injectable()
export class SessionStore {
  private readonly logger = new Logger(SessionStore.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly box: SecretBox,
  ) {}

  /**
   * A request names session `id`: kept alive if live, else started, unless the owner already has
   * `cap` live ones (ConflictError). Counting and starting happen under a MySQL lock of the owner's
   * (taken one at a time, each statement committed before it is let go), so two requests starting
   * sessions at once cannot both take the last place.
   */
  async open(owner: SessionOwner, id: string, cap: number, idleMs: number, now = new Date()): Promise<void> {
    const expires = new Date(now.getTime() + idleMs);
    const lock = `sessions:${owner.accountId}:${owner.environment}`;
    const runner = this.db.createQueryRunner();
    try {
      const [{ got }] = (await runner.query('SELECT GET_LOCK(?, ?) AS got', [lock, LOCK_WAIT_SECONDS])) as {
        got: number | null;
      }[];
      if (got !== 1) throw new UnavailableError('Sessions are busy; try again');
      try {
        const touched = (await runner.query(
          `UPDATE sessions SET last_used_at = ?, expires_at = ?
            WHERE account_id = ? AND environment = ? AND session_id = ? AND expires_at > ?`,
          [now, expires, owner.accountId, owner.environment, id, now],
        )) as Written;
        if (touched.affectedRows > 0) return;
        const [{ live }] = (await runner.query(
          'SELECT COUNT(*) AS live FROM sessions WHERE account_id = ? AND environment = ? AND expires_at > ?',
          [owner.accountId, owner.environment, now],
        )) as { live: number }[];
        if (Number(live) >= cap) {
          throw new ConflictError(
            `session_id: this account already has ${cap} live sessions in ${owner.environment}, the most its plan allows; end one with DELETE /v1/sessions/{id} or wait for one to expire`,
          );
        }
        // An expired row of the same id starts over, empty.
        await runner.query(
          `INSERT INTO sessions (account_id, environment, session_id, state_enc, created_at, last_used_at, expires_at)
           VALUES (?, ?, ?, NULL, ?, ?, ?)
           ON DUPLICATE KEY UPDATE state_enc = NULL, created_at = VALUES(created_at),
             last_used_at = VALUES(last_used_at), expires_at = VALUES(expires_at)`,
          [owner.accountId, owner.environment, id, now, now, expires],
        );
      } finally {
        await runner.query('DO RELEASE_LOCK(?)', [lock]);
      }
    } finally {
      await runner.release();
    }
  }

  /** The owner's live sessions, the most recently used first. */
  async list(owner: SessionOwner, now = new Date()): Promise<SessionView[]> {
    const rows = await this.db.query<
      { session_id: string; created_at: Date; last_used_at: Date; expires_at: Date }[]
    >(
      `SELECT session_id, created_at, last_used_at, expires_at FROM sessions
        WHERE account_id = ? AND environment = ? AND expires_at > ? ORDER BY last_used_at DESC, session_id`,
      [owner.accountId, owner.environment, now],
    );
    return rows.map((r) => ({
      id: r.session_id,
      created_at: r.created_at.toISOString(),
      last_used_at: r.last_used_at.toISOString(),
      expires_at: r.expires_at.toISOString(),
    }));
  }

  /** Forgets a live session with its state; false when the owner has none of that id. */
  async forget(owner: SessionOwner, id: string, now = new Date()): Promise<boolean> {
    const res = await this.db.query<Written>(
      'DELETE FROM sessions WHERE account_id = ? AND environment = ? AND session_id = ? AND expires_at > ?',
      [owner.accountId, owner.environment, id, now],
    );
    return res.affectedRows > 0;
  }

  /**
   * The session's saved state; empty when it has none, has expired or was forgotten, or when it
   * does not open (sealed under another SECRETS_ENCRYPTION_KEY, or copied from another row): a
   * state nobody can read must not fail every page of the session.
   */
  async load(owner: SessionOwner, id: string, now = new Date()): Promise<SessionState> {
    const [row] = await this.db.query<{ state_enc: string | null }[]>(
      `SELECT state_enc FROM sessions
        WHERE account_id = ? AND environment = ? AND session_id = ? AND expires_at > ?`,
      [owner.accountId, owner.environment, id, now],
    );
    if (!row?.state_enc) return EMPTY_SESSION;
    try {
      return JSON.parse(this.box.open(row.state_enc, context(owner, id))) as SessionState;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'a session state that does not open starts empty');
      return EMPTY_SESSION;
    }
  }

  /**
   * Saves the state a page left (undefined: the page could not be read, the state stays) and keeps
   * the session alive. A session that expired or was forgotten while a job still used it starts
   * again from this page's state: the job named it.
   */
  async save(
    owner: SessionOwner,
    id: string,
    state: SessionState | undefined,
    idleMs: number,
    now = new Date(),
  ): Promise<void> {
    const expires = new Date(now.getTime() + idleMs);
    const json = state && fitted(state);
    const sealed = json === undefined ? null : this.box.seal(json, context(owner, id));
    // created_at is assigned first: it reads expires_at before that is moved.
    await executePrepared(
      this.db,
      `INSERT INTO sessions (account_id, environment, session_id, state_enc, created_at, last_used_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE
         created_at = IF(expires_at > VALUES(last_used_at), created_at, VALUES(created_at)),
         state_enc = IF(? , VALUES(state_enc), IF(expires_at > VALUES(last_used_at), state_enc, NULL)),
         last_used_at = VALUES(last_used_at), expires_at = VALUES(expires_at)`,
      [owner.accountId, owner.environment, id, sealed, now, now, expires, sealed !== null],
    );
  }

  /** Deletes up to `limit` sessions expired before `now`; returns how many. */
  async deleteExpired(now: Date, limit: number): Promise<number> {
    const res = await this.db.query<Written>('DELETE FROM sessions WHERE expires_at <= ? LIMIT ?', [
      now,
      limit,
    ]);
    return res.affectedRows;
  }
}

const context = ({ accountId, environment }: SessionOwner, id: string) =>
  `session:${accountId}:${environment}:${id}`;

/** The state as JSON within MAX_SESSION_STATE_BYTES: without localStorage if need be, else undefined. */
function fitted(state: SessionState): string | undefined {
  const json = JSON.stringify(state);
  if (Buffer.byteLength(json) <= MAX_SESSION_STATE_BYTES) return json;
  const cookiesOnly = JSON.stringify({ cookies: state.cookies, origins: [] });
  return Buffer.byteLength(cookiesOnly) <= MAX_SESSION_STATE_BYTES ? cookiesOnly : undefined;
}
