import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ConflictError } from '@app/common';
import { SecretBox, dataSourceOptions } from '@app/persistence';
import type { SessionState } from '@app/queue-contracts';
import { Session } from './session.entity';
import { SessionStore, type SessionOwner } from './session-store';

const MINUTE = 60_000;
const state = (value: string): SessionState => ({
  cookies: [
    { name: 'sid', value, domain: 'site.test', path: '/', expires: -1, httpOnly: true, secure: false },
  ],
  origins: [{ origin: 'http://site.test', localStorage: [['k', value]] }],
});

/** Sessions' rows on the test database (real MySQL): cap, expiry, isolation and sealing. */
describe('session store (real MySQL)', () => {
  let db: DataSource;
  let store: SessionStore;
  const owner = (environment: SessionOwner['environment'] = 'production'): SessionOwner => ({
    accountId: `acc_${randomBytes(6).toString('hex')}`,
    environment,
  });

  beforeAll(async () => {
    db = new DataSource(dataSourceOptions(process.env.DATABASE_URL!, 4, [Session]));
    await db.initialize();
    store = new SessionStore(db, new SecretBox(randomBytes(32).toString('hex')));
  });
  afterAll(async () => db.destroy());

  it('keeps a state for its owner and id only, sealed at rest', async () => {
    const a = owner();
    const sandbox = { ...a, environment: 'sandbox' as const };
    await store.open(a, 'Shop', 5, 30 * MINUTE);
    await store.save(a, 'Shop', state('secret-cookie-value'), 30 * MINUTE);
    expect(await store.load(a, 'Shop')).toEqual(state('secret-cookie-value'));
    // Another case, environment or account: nothing of it.
    expect(await store.load(a, 'shop')).toEqual({ cookies: [], origins: [] });
    expect(await store.load(sandbox, 'Shop')).toEqual({ cookies: [], origins: [] });
    expect(await store.load(owner(), 'Shop')).toEqual({ cookies: [], origins: [] });
    const [row] = await db.query<{ state_enc: string }[]>(
      'SELECT state_enc FROM sessions WHERE account_id = ? AND session_id = ?',
      [a.accountId, 'Shop'],
    );
    expect(row.state_enc).toMatch(/^v1\./);
    expect(row.state_enc).not.toContain('secret-cookie-value');
    // Sealed for its row: copied to another id, it does not open there (the copy starts empty).
    await store.open(a, 'copy', 5, 30 * MINUTE);
    await db.query('UPDATE sessions SET state_enc = ? WHERE account_id = ? AND session_id = ?', [
      row.state_enc,
      a.accountId,
      'copy',
    ]);
    expect(await store.load(a, 'copy')).toEqual({ cookies: [], origins: [] });
  });

  it("refuses a new session past the cap, counting live sessions of the owner's environment only", async () => {
    const a = owner();
    await store.open(a, 's1', 2, 30 * MINUTE);
    await store.open(a, 's2', 2, 30 * MINUTE);
    await expect(store.open(a, 's3', 2, 30 * MINUTE)).rejects.toBeInstanceOf(ConflictError);
    // A live one named again is not new.
    await store.open(a, 's1', 2, 30 * MINUTE);
    await store.open({ ...a, environment: 'sandbox' }, 's3', 2, 30 * MINUTE);
    // Forgetting one frees its place.
    expect(await store.forget(a, 's2')).toBe(true);
    expect(await store.forget(a, 's2')).toBe(false);
    await store.open(a, 's3', 2, 30 * MINUTE);
    expect((await store.list(a)).map((s) => s.id).sort()).toEqual(['s1', 's3']);
  });

  it('lets two requests opening sessions at once take the last place only once', async () => {
    const a = owner();
    const tries = await Promise.allSettled(
      ['x1', 'x2', 'x3', 'x4'].map((id) => store.open(a, id, 2, MINUTE)),
    );
    expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(2);
    for (const t of tries) if (t.status === 'rejected') expect(t.reason).toBeInstanceOf(ConflictError);
    expect((await store.list(a)).length).toBe(2);
  });

  it('forgets an idle session: not listed, not loaded, not counted, and it starts over empty', async () => {
    const a = owner();
    const start = new Date(Date.now() - 40 * MINUTE);
    await store.open(a, 'old', 1, 30 * MINUTE, start);
    await store.save(a, 'old', state('v1'), 30 * MINUTE, start);
    expect(await store.list(a)).toEqual([]);
    expect(await store.load(a, 'old')).toEqual({ cookies: [], origins: [] });
    expect(await store.forget(a, 'old')).toBe(false);
    // The cap of 1 counts live sessions only.
    await store.open(a, 'new', 1, 30 * MINUTE);
    await store.forget(a, 'new');
    await store.open(a, 'old', 1, 30 * MINUTE);
    expect(await store.load(a, 'old')).toEqual({ cookies: [], origins: [] });
    const [listed] = await store.list(a);
    expect(new Date(listed.created_at).getTime()).toBeGreaterThan(start.getTime() + 30 * MINUTE);
  });

  it('is kept alive by each save, and a save without a state keeps the one saved', async () => {
    const a = owner();
    const t0 = new Date(Date.now() - 50 * MINUTE);
    await store.open(a, 'busy', 5, 30 * MINUTE, t0);
    await store.save(a, 'busy', state('v1'), 30 * MINUTE, new Date(t0.getTime() + 25 * MINUTE));
    await store.save(a, 'busy', undefined, 30 * MINUTE, new Date(t0.getTime() + 45 * MINUTE));
    expect(await store.load(a, 'busy')).toEqual(state('v1'));
    const [listed] = await store.list(a);
    expect(listed.created_at).toBe(t0.toISOString());
  });

  it('deletes expired rows in rounds', async () => {
    const a = owner();
    const long = new Date(Date.now() - 3 * 60 * MINUTE);
    for (const id of ['e1', 'e2', 'e3']) await store.open(a, id, 5, MINUTE, long);
    await store.open(a, 'live', 5, MINUTE);
    let deleted = 0;
    for (let n; (n = await store.deleteExpired(new Date(), 2));) deleted += n;
    expect(deleted).toBeGreaterThanOrEqual(3);
    const [{ n }] = await db.query<{ n: number }[]>(
      'SELECT COUNT(*) AS n FROM sessions WHERE account_id = ?',
      [a.accountId],
    );
    expect(Number(n)).toBe(1);
  });
});
