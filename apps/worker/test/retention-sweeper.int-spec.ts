import { DataSource } from 'typeorm';
import { loadWorkerEnv } from '@app/config';
import { JOB_ENTITIES, JobRetention } from '@app/jobs';
import { SecretBox, dataSourceOptions } from '@app/persistence';
import { newId } from '@app/common';
import { SessionStore } from '@app/sessions';
import { RetentionSweeper } from '../src/maintenance/retention-sweeper.service';
import { insertEndedJob, pageResult } from '../../../test/support/ended-jobs';
import { ApiHarness, createAccount, startApi } from '../../../test/support/api-harness';

describe('retention sweeper', () => {
  let api: ApiHarness;
  let db: DataSource;
  const sessions = () => new SessionStore(db, new SecretBox(loadWorkerEnv().SECRETS_ENCRYPTION_KEY));

  beforeAll(async () => {
    api = await startApi();
    db = new DataSource(dataSourceOptions(process.env.DATABASE_URL!, 2, JOB_ENTITIES));
    await db.initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await api.close();
  });

  it('deletes jobs past expires_at with their pages, and keeps the others', async () => {
    const account = await createAccount(api);
    const pages = [pageResult(0), pageResult(1)];
    const expired = await insertEndedJob(db, {
      accountId: account.id,
      type: 'batch',
      webhookUrl: null,
      pages,
    });
    const kept = await insertEndedJob(db, { accountId: account.id, type: 'batch', webhookUrl: null, pages });
    await db.query('UPDATE jobs SET expires_at = ? WHERE id = ?', [new Date(Date.now() - 1000), expired]);

    const deleted = await new RetentionSweeper(db, new JobRetention(db), loadWorkerEnv(), sessions()).sweep();
    expect(deleted).toBeGreaterThanOrEqual(1);
    const count = async (table: string, id: string) =>
      Number(
        (
          await db.query(
            `SELECT COUNT(*) AS n FROM ${table} WHERE ${table === 'jobs' ? 'id' : 'job_id'} = ?`,
            [id],
          )
        )[0].n,
      );
    expect([await count('jobs', expired), await count('job_pages', expired)]).toEqual([0, 0]);
    expect([await count('jobs', kept), await count('job_pages', kept)]).toEqual([1, 2]);
    await api.http().get(`/v1/jobs/${expired}`).set('Authorization', `Bearer ${account.liveKey}`).expect(404);
    await api.http().get(`/v1/jobs/${kept}`).set('Authorization', `Bearer ${account.liveKey}`).expect(200);
  });

  describe('webhook deliveries', () => {
    const DAY = 24 * 3600 * 1000;
    const sweeper = () =>
      new RetentionSweeper(
        db,
        new JobRetention(db),
        Object.assign(loadWorkerEnv(), { WEBHOOK_DELIVERY_RETENTION_DAYS: 7 }),
        sessions(),
      );

    /** An ended job with one delivery (status, last changed `updatedDaysAgo` days ago) and two attempts. */
    async function delivery(
      accountId: string,
      status: 'pending' | 'succeeded' | 'failed',
      updatedDaysAgo: number,
      jobExpired: boolean,
    ) {
      const jobId = await insertEndedJob(db, { accountId, webhookUrl: 'https://receiver.test/hook' });
      if (jobExpired) {
        await db.query('UPDATE jobs SET expires_at = ? WHERE id = ?', [new Date(Date.now() - 1000), jobId]);
      }
      const id = newId('msg');
      const updated = new Date(Date.now() - updatedDaysAgo * DAY);
      await db.query(
        `INSERT INTO webhook_deliveries (id, account_id, environment, job_id, url, payload, status, attempt_count, created_at, updated_at)
         VALUES (?, ?, 'production', ?, 'https://receiver.test/hook', '{}', ?, 2, ?, ?)`,
        [id, accountId, jobId, status, new Date(updated.getTime() - DAY), updated],
      );
      for (const attemptNo of [1, 2]) {
        await db.query(
          `INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, request_headers, status_code, latency_ms)
           VALUES (?, ?, ?, '{}', 500, 10)`,
          [id, attemptNo, updated],
        );
      }
      return id;
    }

    const rows = async (id: string) => [
      Number((await db.query('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE id = ?', [id]))[0].n),
      Number((await db.query('SELECT COUNT(*) AS n FROM webhook_attempts WHERE delivery_id = ?', [id]))[0].n),
    ];

    it('deletes ended deliveries and their attempts past the retention once their job has expired', async () => {
      const account = await createAccount(api);
      const delivered = await delivery(account.id, 'succeeded', 8, true);
      const deadLong = await delivery(account.id, 'failed', 8, true);
      // Dead-lettered 3 days ago: still replayable for 4 more days, though its job has expired.
      const deadRecently = await delivery(account.id, 'failed', 3, true);
      // Still being tried, however old.
      const pending = await delivery(account.id, 'pending', 8, true);
      // The job is unexpired: the delivery sweep would create the delivery again and re-send it.
      const jobAlive = await delivery(account.id, 'failed', 8, false);

      // Jobs go first, as in the loop: a delivery whose job row is gone is swept as well.
      await sweeper().sweep();
      expect(await sweeper().sweepDeliveries()).toBeGreaterThanOrEqual(2);
      expect(await rows(delivered)).toEqual([0, 0]);
      expect(await rows(deadLong)).toEqual([0, 0]);
      for (const kept of [deadRecently, pending, jobAlive]) expect(await rows(kept)).toEqual([1, 2]);

      // Five days on (an injected clock), the recent dead letter's own retention has ended too.
      await sweeper().sweepDeliveries(new Date(Date.now() + 5 * DAY));
      expect(await rows(deadRecently)).toEqual([0, 0]);
      expect(await rows(pending)).toEqual([1, 2]);
    });

    it('keeps a dead letter replayed since it was read', async () => {
      const account = await createAccount(api);
      const dead = await delivery(account.id, 'failed', 8, true);
      const sweep = sweeper();
      // The replay lands between the sweep's read and its delete: the locked re-check keeps it.
      const query = db.query.bind(db);
      const spy = jest.spyOn(db, 'query').mockImplementationOnce(async (sql: string, params?: unknown[]) => {
        const found = await query(sql, params);
        await query(`UPDATE webhook_deliveries SET status = 'pending', updated_at = NOW(3) WHERE id = ?`, [
          dead,
        ]);
        return found;
      });
      await sweep.sweepDeliveries();
      spy.mockRestore();
      expect(await rows(dead)).toEqual([1, 2]);
    });
  });

  it('deletes expired sessions and keeps live ones', async () => {
    const account = await createAccount(api);
    const owner = { accountId: account.id, environment: 'production' as const };
    const store = sessions();
    await store.open(owner, 'gone', 5, 60_000, new Date(Date.now() - 3_600_000));
    await store.open(owner, 'live', 5, 60_000);
    const sweeper = new RetentionSweeper(db, new JobRetention(db), loadWorkerEnv(), store);
    expect(await sweeper.sweepSessions()).toBeGreaterThanOrEqual(1);
    const rows = await db.query<{ session_id: string }[]>(
      'SELECT session_id FROM sessions WHERE account_id = ?',
      [account.id],
    );
    expect(rows.map((r) => r.session_id)).toEqual(['live']);
  });
});
