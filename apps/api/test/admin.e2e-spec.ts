import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { WebhookDeliveries, WebhookSecrets } from '@app/webhooks';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { insertEndedJob } from '../../../test/support/ended-jobs';

interface AuditRow {
  admin_id: string;
  action: string;
  target: string | null;
  details: Record<string, unknown> | null;
}

/**
 * The admin API (README, Admin API): admin identities and their keys, every account's data,
 * the audit log, and the walls between customers and admins. No worker runs: deliveries stay
 * pending, which is all listing, scoping and replay bookkeeping need.
 */
describe('admin API', () => {
  let api: ApiHarness;
  let db: DataSource;
  let adminId: string;
  let adminKey: string;
  let a: TestAccount;
  let b: TestAccount;
  // Never dialed: nothing consumes the webhooks queue in this file.
  const hook = 'https://127.0.0.1:9/hook';

  const as = (key: string) => ({
    get: (path: string) => api.http().get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string, body: object = {}) =>
      api.http().post(path).set('Authorization', `Bearer ${key}`).send(body),
    patch: (path: string, body: object) =>
      api.http().patch(path).set('Authorization', `Bearer ${key}`).send(body),
    delete: (path: string) => api.http().delete(path).set('Authorization', `Bearer ${key}`),
  });
  const admin = () => as(adminKey);
  const email = () => `adm-${randomBytes(5).toString('hex')}@example.test`;

  async function endedJobWithDelivery(account: TestAccount) {
    const jobId = await insertEndedJob(db, { accountId: account.id, webhookUrl: hook });
    const deliveryId = (await api.app.get(WebhookDeliveries).jobEnded(jobId))!;
    return { jobId, deliveryId };
  }

  async function auditOf(target: string): Promise<AuditRow[]> {
    const res = await admin().get(`/admin/v1/audit?target=${target}`).expect(200);
    return res.body.data;
  }

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    const created = await as(api.env.ADMIN_TOKEN!).post('/admin/v1/admins', { email: email() }).expect(201);
    adminId = created.body.admin.id;
    adminKey = created.body.key.key;
    [a, b] = [await createAccount(api), await createAccount(api)];
  });
  afterAll(() => api?.close());

  describe('identities', () => {
    it('ADMIN_TOKEN bootstraps an admin whose osk_admin_ key is stored hashed and shown once', async () => {
      expect(adminId).toMatch(/^adm_[0-9a-z]{26}$/);
      expect(adminKey).toMatch(/^osk_admin_[0-9A-Za-z]{39}$/);
      expect((await admin().get('/admin/v1/whoami').expect(200)).body).toEqual({
        id: adminId,
        email: expect.stringMatching(/@example\.test$/),
      });
      const [row] = await db.query('SELECT key_hash, prefix, last4 FROM admin_keys WHERE admin_id = ?', [
        adminId,
      ]);
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.key_hash).not.toContain(adminKey.slice(10, 20));
      expect(row.prefix).toBe(adminKey.slice(0, 14));
      const keys = await admin().get(`/admin/v1/admins/${adminId}/keys`).expect(200);
      expect(JSON.stringify(keys.body)).not.toContain(adminKey);
      expect(await auditOf(adminId)).toEqual([
        expect.objectContaining({ admin_id: 'bootstrap', action: 'admin.create', target: adminId }),
      ]);
      // The bootstrap token keeps working.
      expect((await as(api.env.ADMIN_TOKEN!).get('/admin/v1/whoami').expect(200)).body.id).toBe('bootstrap');
    });

    it('refuses a customer key, no key and a broken key on /admin; an admin key on /v1', async () => {
      for (const key of [a.liveKey, a.testKey]) {
        const read = await as(key).get('/admin/v1/accounts').expect(401);
        expect(read.body).toEqual({ detail: expect.any(String), code: 'unauthorized' });
        await as(key).post(`/admin/v1/webhooks/deliveries/replay`, {}).expect(401);
        await as(key).patch(`/admin/v1/accounts/${a.id}`, { plan: 'enterprise' }).expect(401);
      }
      await api.http().get('/admin/v1/accounts').expect(401);
      await as(`${adminKey.slice(0, -1)}${adminKey.endsWith('x') ? 'y' : 'x'}`)
        .get('/admin/v1/accounts')
        .expect(401);
      await as(adminKey).get('/v1/me').expect(401);
      expect((await as(a.liveKey).get('/v1/me').expect(200)).body.user.plan).toBe('starter');
    });

    it('a revoked admin key stops at once; the revocation is audited with the revoking admin', async () => {
      const other = await admin()
        .post('/admin/v1/admins', { email: email(), key_name: 'qa laptop' })
        .expect(201);
      const second = await admin().post(`/admin/v1/admins/${other.body.admin.id}/keys`, {}).expect(201);
      await as(second.body.key).get('/admin/v1/whoami').expect(200);
      await admin().delete(`/admin/v1/admins/${other.body.admin.id}/keys/${second.body.id}`).expect(200);
      await as(second.body.key).get('/admin/v1/whoami').expect(401);
      await as(other.body.key.key).get('/admin/v1/whoami').expect(200);
      expect(await auditOf(second.body.id)).toEqual([
        expect.objectContaining({ admin_id: adminId, action: 'admin_key.revoke' }),
        expect.objectContaining({ admin_id: adminId, action: 'admin_key.issue' }),
      ]);
    });
  });

  describe('accounts and keys', () => {
    it('lists and searches accounts by part of the e-mail, newest first, paging on', async () => {
      const found = await admin()
        .get(`/admin/v1/accounts?email=${a.email.slice(2, 12)}`)
        .expect(200);
      expect(found.body.data).toEqual([
        expect.objectContaining({ id: a.id, email: a.email, plan: 'starter' }),
      ]);
      const firstPage = await admin().get('/admin/v1/accounts?limit=1').expect(200);
      expect(firstPage.body.data).toHaveLength(1);
      const next = await admin().get(`/admin/v1/accounts?limit=1&cursor=${firstPage.body.next}`).expect(200);
      expect(next.body.data[0].id < firstPage.body.data[0].id).toBe(true);
      // LIKE's wildcards are matched literally.
      expect((await admin().get('/admin/v1/accounts?email=%25').expect(200)).body.data).toEqual([]);
    });

    it('creates, shows (keys, usage), changes plan, suspends and reactivates, all audited', async () => {
      const mail = email();
      const created = await admin().post('/admin/v1/accounts', { email: mail, plan: 'free' }).expect(201);
      const id = created.body.account.id;
      const live = created.body.keys.find((k: { environment: string }) => k.environment === 'production').key;
      const detail = await admin().get(`/admin/v1/accounts/${id}`).expect(200);
      expect(detail.body).toMatchObject({ id, email: mail, plan: 'free', status: 'active' });
      expect(detail.body.keys).toHaveLength(2);
      expect(JSON.stringify(detail.body)).not.toContain(live);
      expect(detail.body.usage.production).toEqual({
        requests_this_month: 0,
        requests_today: 0,
        avg_response_ms: 0,
        success_rate: 0,
      });

      await admin().patch(`/admin/v1/accounts/${id}`, { plan: 'pro' }).expect(200);
      const byPlan = (plan: string) =>
        admin()
          .get(`/admin/v1/accounts?plan=${plan}&email=${encodeURIComponent(mail)}`)
          .expect(200);
      expect((await byPlan('pro')).body.data.map((x: { id: string }) => x.id)).toEqual([id]);
      expect((await byPlan('free')).body.data).toEqual([]);
      expect((await as(live).get('/v1/me').expect(200)).body.user).toMatchObject({
        plan: 'pro',
        limit: 500000,
      });
      await admin().patch(`/admin/v1/accounts/${id}`, { status: 'suspended' }).expect(200);
      await as(live).get('/v1/me').expect(401);
      await admin().patch(`/admin/v1/accounts/${id}`, { status: 'active' }).expect(200);
      await as(live).get('/v1/me').expect(200);
      const bad = await admin().patch(`/admin/v1/accounts/${id}`, { plan: 'platinum' }).expect(400);
      expect(bad.body.errors).toEqual([{ field: 'plan', message: expect.any(String) }]);
      await admin().patch(`/admin/v1/accounts/${id}`, { status: 'deleted' }).expect(400);

      expect((await auditOf(id)).map((e) => [e.admin_id, e.action, e.details])).toEqual([
        [adminId, 'account.update', { id, status: 'active' }],
        [adminId, 'account.update', { id, status: 'suspended' }],
        [adminId, 'account.update', { id, plan: 'pro' }],
        [adminId, 'account.create', { email: mail, plan: 'free' }],
      ]);
    });

    it('issues and revokes an account’s keys; the revoked key stops at once', async () => {
      const issued = await admin()
        .post(`/admin/v1/accounts/${a.id}/keys`, { environment: 'sandbox', name: 'ci' })
        .expect(201);
      expect(issued.body.key).toMatch(/^osk_test_/);
      await as(issued.body.key).get('/v1/me').expect(200);
      const list = await admin().get(`/admin/v1/accounts/${a.id}/keys`).expect(200);
      expect(list.body.data).toContainEqual(
        expect.objectContaining({
          id: issued.body.id,
          prefix: issued.body.key.slice(0, 13),
          last4: issued.body.key.slice(-4),
        }),
      );
      expect(JSON.stringify(list.body)).not.toContain(issued.body.key);
      await admin().delete(`/admin/v1/keys/${issued.body.id}`).expect(200);
      await as(issued.body.key).get('/v1/me').expect(401);
      await admin().get('/admin/v1/accounts/acc_00000000000000000000000000/keys').expect(404);
      expect((await auditOf(issued.body.id)).map((e) => e.action)).toEqual(['key.revoke', 'key.issue']);
    });

    it('rotates an account’s webhook secret without ever showing it', async () => {
      const account = await createAccount(api);
      const before = (await as(account.liveKey).get('/v1/webhooks/secret').expect(200)).body.secret;
      const res = await admin()
        .post(
          `/admin/v1/accounts/${account.id}/webhooks/secret/rotate?environment=production&expire_now=true`,
        )
        .expect(200);
      expect(res.body).toEqual({
        account_id: account.id,
        environment: 'production',
        rotated_at: expect.any(String),
        previous_expires_at: null,
      });
      const after = (await as(account.liveKey).get('/v1/webhooks/secret').expect(200)).body.secret;
      expect(after).not.toBe(before);
      expect(JSON.stringify(res.body)).not.toContain('whsec_');
      expect(
        await api.app.get(WebhookSecrets).signing({ accountId: account.id, environment: 'production' }),
      ).toEqual([after]);
      const [entry] = await auditOf(account.id);
      expect(entry).toMatchObject({ admin_id: adminId, action: 'webhook_secret.rotate' });
      expect(JSON.stringify(entry)).not.toContain('whsec_');
      await admin().post(`/admin/v1/accounts/${account.id}/webhooks/secret/rotate`).expect(400);
    });
  });

  describe('plans', () => {
    it('lists the seeded plans; creates and edits one, audited', async () => {
      const list = await admin().get('/admin/v1/plans').expect(200);
      expect(list.body.data.map((p: { name: string }) => p.name)).toEqual(
        expect.arrayContaining(['free', 'starter', 'pro', 'enterprise']),
      );
      const name = `qa-${randomBytes(3).toString('hex')}`;
      const limits = { rate_per_minute: 5, monthly_quota: 10, max_concurrent_pages: 1 };
      await admin()
        .post('/admin/v1/plans', { name, ...limits })
        .expect(201);
      await admin()
        .post('/admin/v1/plans', { name, ...limits })
        .expect(409);
      await admin()
        .post('/admin/v1/plans', { name: 'Bad Name', ...limits })
        .expect(400);
      const account = await createAccount(api, name);
      expect((await as(account.liveKey).get('/v1/me').expect(200)).body.user.limit).toBe(10);
      const edited = await admin().patch(`/admin/v1/plans/${name}`, { monthly_quota: 20 }).expect(200);
      expect(edited.body).toMatchObject({ name, monthly_quota: 20, rate_per_minute: 5 });
      expect((await as(account.liveKey).get('/v1/me').expect(200)).body.user.limit).toBe(20);
      await admin().patch(`/admin/v1/plans/${name}`, { name: 'other' }).expect(400);
      await admin().patch('/admin/v1/plans/nope', { monthly_quota: 1 }).expect(404);
      expect((await auditOf(name)).map((e) => e.action)).toEqual(['plan.update', 'plan.create']);
    });
  });

  describe('jobs and deliveries across accounts', () => {
    it('lists and inspects every account’s jobs; a customer sees only its own (404)', async () => {
      const jobA = await insertEndedJob(db, { accountId: a.id, webhookUrl: null });
      const jobB = await insertEndedJob(db, { accountId: b.id, webhookUrl: null, status: 'failed' });
      const onlyA = await admin().get(`/admin/v1/jobs?account_id=${a.id}`).expect(200);
      expect(onlyA.body.data.map((j: { job_id: string }) => j.job_id)).toContain(jobA);
      expect(onlyA.body.data.every((j: { account_id: string }) => j.account_id === a.id)).toBe(true);
      const failed = await admin().get('/admin/v1/jobs?status=failed').expect(200);
      expect(failed.body.data).toContainEqual(
        expect.objectContaining({ job_id: jobB, account_id: b.id, environment: 'production' }),
      );
      const detail = await admin().get(`/admin/v1/jobs/${jobB}`).expect(200);
      expect(detail.body).toMatchObject({ job_id: jobB, account_id: b.id, status: 'failed' });
      await admin().get('/admin/v1/jobs?account_id=nope').expect(400);

      // Nothing consumes the render queue here: an accepted job stays queued until cancelled.
      const queued = await as(a.testKey)
        .post('/v1/scrape/async', { url: 'https://127.0.0.1:9/page' })
        .expect(202);
      const cancelled = await admin().delete(`/admin/v1/jobs/${queued.body.job_id}`).expect(200);
      expect(cancelled.body).toMatchObject({ status: 'cancelled', account_id: a.id, environment: 'sandbox' });
      expect((await as(a.testKey).get(`/v1/jobs/${queued.body.job_id}`).expect(200)).body.status).toBe(
        'cancelled',
      );
      expect((await auditOf(queued.body.job_id))[0]).toMatchObject({
        admin_id: adminId,
        action: 'job.cancel',
      });

      await as(b.liveKey).get(`/v1/jobs/${jobA}`).expect(404);
      await as(b.liveKey).delete(`/v1/jobs/${jobA}`).expect(404);
      await as(a.testKey).get(`/v1/jobs/${jobA}`).expect(404);
      const own = await as(b.liveKey).get('/v1/jobs').expect(200);
      expect(own.body.data.map((j: { job_id: string }) => j.job_id)).not.toContain(jobA);
      expect(own.body.data[0]).not.toHaveProperty('account_id');
    });

    it('lists, inspects and replays every account’s deliveries; a customer cannot reach another’s (404)', async () => {
      const da = await endedJobWithDelivery(a);
      const db_ = await endedJobWithDelivery(b);
      const all = await admin().get('/admin/v1/webhooks/deliveries?status=pending').expect(200);
      const ids = all.body.data.map((d: { id: string }) => d.id);
      expect(ids).toEqual(expect.arrayContaining([da.deliveryId, db_.deliveryId]));
      const ofB = await admin()
        .get(`/admin/v1/webhooks/deliveries?account_id=${b.id}&job_id=${db_.jobId}`)
        .expect(200);
      expect(ofB.body.data).toEqual([
        expect.objectContaining({ id: db_.deliveryId, account_id: b.id, environment: 'production' }),
      ]);
      const future = new Date(Date.now() + 3600_000).toISOString();
      expect(
        (await admin().get(`/admin/v1/webhooks/deliveries?since=${future}`).expect(200)).body.data,
      ).toEqual([]);
      const detail = await admin().get(`/admin/v1/webhooks/deliveries/${da.deliveryId}`).expect(200);
      expect(detail.body).toMatchObject({ id: da.deliveryId, account_id: a.id, job_id: da.jobId });
      expect(detail.body.payload).toMatchObject({ job_id: da.jobId, status: 'completed' });
      expect(Array.isArray(detail.body.attempts)).toBe(true);

      const replayed = await admin()
        .post(`/admin/v1/webhooks/deliveries/${da.deliveryId}/replay`)
        .expect(202);
      expect(replayed.body).toMatchObject({ id: da.deliveryId, replays: 1, account_id: a.id });
      const bulk = await admin()
        .post('/admin/v1/webhooks/deliveries/replay', { account_id: b.id })
        .expect(202);
      expect(bulk.body).toEqual({ replayed: 1, next: null });
      expect((await auditOf(da.deliveryId))[0]).toMatchObject({
        admin_id: adminId,
        action: 'delivery.replay',
      });
      const [bulkEntry] = (await admin().get('/admin/v1/audit?action=delivery.replay_bulk').expect(200)).body
        .data;
      expect(bulkEntry).toMatchObject({ admin_id: adminId, target: null, details: { account_id: b.id } });

      // The customer side of the same wall.
      await as(b.liveKey).get(`/v1/webhooks/deliveries/${da.deliveryId}`).expect(404);
      await as(b.liveKey).post(`/v1/webhooks/deliveries/${da.deliveryId}/replay`).expect(404);
      const own = await as(b.liveKey).get('/v1/webhooks/deliveries').expect(200);
      expect(own.body.data.map((d: { id: string }) => d.id)).toEqual([db_.deliveryId]);
      expect(own.body.data[0]).not.toHaveProperty('account_id');
      const bulkB = await as(b.liveKey).post('/v1/webhooks/deliveries/replay', {}).expect(202);
      expect(bulkB.body.replayed).toBe(1);
    });
  });

  describe('audit log', () => {
    it('has one entry per admin write, none for reads or refused writes, newest first, paged', async () => {
      const count = async () => Number((await db.query('SELECT COUNT(*) AS n FROM audit_log'))[0].n);
      const before = await count();
      await admin().get('/admin/v1/accounts').expect(200);
      await admin().get(`/admin/v1/accounts/${a.id}`).expect(200);
      await admin().post('/admin/v1/accounts', { email: 'nope', plan: 'free' }).expect(400);
      await admin().delete('/admin/v1/keys/key_00000000000000000000000000').expect(404);
      expect(await count()).toBe(before);
      await admin().patch(`/admin/v1/accounts/${a.id}`, { plan: 'starter' }).expect(200);
      expect(await count()).toBe(before + 1);

      const page = await admin().get(`/admin/v1/audit?admin_id=${adminId}&limit=2`).expect(200);
      expect(page.body.data).toHaveLength(2);
      expect(page.body.data[0]).toMatchObject({
        admin_id: adminId,
        action: 'account.update',
        target: a.id,
        request_id: expect.any(String),
        created_at: expect.any(String),
      });
      const next = await admin()
        .get(`/admin/v1/audit?admin_id=${adminId}&limit=2&cursor=${page.body.next}`)
        .expect(200);
      expect(next.body.data[0].id < page.body.data[1].id).toBe(true);
    });

    it('never holds a key', async () => {
      const rows: { details: string | null }[] = await db.query('SELECT details FROM audit_log');
      const all = JSON.stringify(rows);
      expect(all).not.toMatch(/osk_(live|test|admin)_/);
      expect(all).not.toContain(api.env.ADMIN_TOKEN!);
      expect(api.logs.join('')).not.toContain(adminKey);
    });
  });

  describe('paging', () => {
    // One PageQueryDto serves every listing: the same bounds on each.
    it.each([
      ['/v1/jobs', false],
      ['/v1/webhooks/deliveries', false],
      ['/admin/v1/accounts', true],
      ['/admin/v1/audit', true],
      ['/admin/v1/jobs', true],
      ['/admin/v1/webhooks/deliveries', true],
    ])('%s pages by limit (1 to 100) and cursor, and refuses others with 400', async (path, asAdmin) => {
      const c = await createAccount(api);
      await endedJobWithDelivery(c);
      await endedJobWithDelivery(c);
      const get = (query: string) => (asAdmin ? admin() : as(c.liveKey)).get(`${path}?${query}`);
      const first = await get('limit=1').expect(200);
      expect(first.body.data).toHaveLength(1);
      const second = await get(`limit=1&cursor=${first.body.next}`).expect(200);
      expect(second.body.data).toHaveLength(1);
      expect(second.body.data[0]).not.toEqual(first.body.data[0]);
      await get('limit=100').expect(200);
      for (const bad of ['limit=0', 'limit=101', 'limit=ten', 'limit=1.5', `cursor=${'x'.repeat(201)}`]) {
        const res = await get(bad).expect(400);
        expect(res.body.errors).toEqual([{ field: bad.split('=')[0], message: expect.any(String) }]);
      }
    });
  });
});
