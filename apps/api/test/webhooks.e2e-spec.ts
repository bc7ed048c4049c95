import { DataSource } from 'typeorm';
import { WebhookDeliveries, WebhookSecrets } from '@app/webhooks';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { insertEndedJob } from '../../../test/support/ended-jobs';

/**
 * The webhook endpoints of the API. No worker runs here: deliveries stay pending, which is all
 * the log, scoping and replay bookkeeping need. Sending is covered by the worker's tests.
 */
describe('webhook endpoints', () => {
  let api: ApiHarness;
  let db: DataSource;
  let a: TestAccount;
  let b: TestAccount;
  const get = (path: string, key: string) => api.http().get(path).set('Authorization', `Bearer ${key}`);
  const post = (path: string, key: string, body: object = {}) =>
    api.http().post(path).set('Authorization', `Bearer ${key}`).send(body);
  // Never dialed: nothing consumes the webhooks queue in this file.
  const hook = 'https://127.0.0.1:9/hook';

  async function endedJobWithDelivery(
    account: TestAccount,
    environment: 'production' | 'sandbox' = 'production',
  ) {
    const jobId = await insertEndedJob(db, { accountId: account.id, environment, webhookUrl: hook });
    const deliveryId = (await api.app.get(WebhookDeliveries).jobEnded(jobId))!;
    return { jobId, deliveryId };
  }

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    [a, b] = [await createAccount(api), await createAccount(api)];
  });
  afterAll(() => api?.close());

  describe('secret', () => {
    it('is made on first use, stays the same, differs per environment and per account, never cached', async () => {
      const first = await get('/v1/webhooks/secret', a.liveKey).expect(200);
      expect(first.headers['cache-control']).toBe('no-store');
      expect(first.body).toEqual({
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        environment: 'production',
        created_at: expect.any(String),
        rotated_at: null,
        previous_expires_at: null,
      });
      expect((await get('/v1/webhooks/secret', a.liveKey).expect(200)).body.secret).toBe(first.body.secret);
      const sandbox = await get('/v1/webhooks/secret', a.testKey).expect(200);
      expect(sandbox.body.environment).toBe('sandbox');
      expect(sandbox.body.secret).not.toBe(first.body.secret);
      expect((await get('/v1/webhooks/secret', b.liveKey).expect(200)).body.secret).not.toBe(
        first.body.secret,
      );
      await api.http().get('/v1/webhooks/secret').expect(401);
    });

    it('is stored sealed, not in clear', async () => {
      const { secret } = (await get('/v1/webhooks/secret', a.liveKey).expect(200)).body;
      const rows = await db.query('SELECT secret_enc FROM webhook_secrets WHERE account_id = ?', [a.id]);
      expect(rows.length).toBe(2);
      for (const row of rows) expect(row.secret_enc).not.toContain(secret.slice(6, 20));
    });

    it('rotates: both sign for 24 h; expire_now drops the old one at once', async () => {
      const account = await createAccount(api);
      const owner = { accountId: account.id, environment: 'production' as const };
      const secrets = api.app.get(WebhookSecrets);
      const old = (await get('/v1/webhooks/secret', account.liveKey).expect(200)).body.secret;
      const rotated = await post('/v1/webhooks/secret/rotate', account.liveKey).expect(200);
      expect(rotated.headers['cache-control']).toBe('no-store');
      expect(rotated.body.secret).not.toBe(old);
      const expires = Date.parse(rotated.body.previous_expires_at) - Date.now();
      expect(expires).toBeGreaterThan(24 * 3600_000 - 60_000);
      expect(expires).toBeLessThanOrEqual(24 * 3600_000);
      expect((await get('/v1/webhooks/secret', account.liveKey).expect(200)).body).toMatchObject({
        secret: rotated.body.secret,
        previous_expires_at: rotated.body.previous_expires_at,
      });
      expect(await secrets.signing(owner)).toEqual([rotated.body.secret, old]);
      // The sandbox secret is another world: untouched.
      expect(await secrets.signing({ ...owner, environment: 'sandbox' })).toHaveLength(1);

      const leaked = await post('/v1/webhooks/secret/rotate?expire_now=true', account.liveKey).expect(200);
      expect(leaked.body.previous_expires_at).toBeNull();
      expect(await secrets.signing(owner)).toEqual([leaked.body.secret]);
      const bad = await post('/v1/webhooks/secret/rotate?expire_now=yes', account.liveKey).expect(400);
      expect(bad.body.errors[0].field).toBe('expire_now');
    });

    it('never reaches a log line', async () => {
      const account = await createAccount(api);
      const revealed = [(await get('/v1/webhooks/secret', account.liveKey).expect(200)).body.secret];
      revealed.push((await post('/v1/webhooks/secret/rotate', account.liveKey).expect(200)).body.secret);
      const logs = api.logs.join('');
      for (const secret of revealed) expect(logs).not.toContain(secret.slice(6));
    });
  });

  describe('webhook_url at job creation', () => {
    const target = 'https://127.0.0.1:9/page';
    const refused = [
      'http://127.0.0.1:9/hook',
      'https://127.0.0.2:9/hook',
      'https://[::1]:9/hook',
      'https://[::ffff:127.0.0.2]:9/hook',
      'https://0x7f000002:9/hook',
      'https://2130706434:9/hook',
      'https://foo.localhost:9/hook',
      'ftp://127.0.0.1/hook',
    ];

    it.each(refused)('refuses %s with 400 naming webhook_url (scrape, batch, crawl)', async (webhook_url) => {
      for (const [path, body] of [
        ['/v1/scrape/async', { url: target, webhook_url }],
        ['/v1/scrape/batch/async', { urls: [target], webhook_url }],
        ['/v1/crawl', { url: target, webhook_url }],
      ] as const) {
        const res = await post(path, a.liveKey, body).expect(400);
        expect(res.body.code).toBe('invalid_request');
        expect(res.body.errors).toEqual([{ field: 'webhook_url', message: expect.any(String) }]);
      }
    });

    it('says why plain http is refused', async () => {
      const res = await post('/v1/scrape/async', a.liveKey, {
        url: target,
        webhook_url: 'http://127.0.0.1:9/hook',
      });
      expect(res.body.errors[0].message).toBe('must use https, not http');
    });
  });

  describe('deliveries', () => {
    it('lists, filters and pages through the caller’s deliveries, newest first', async () => {
      const account = await createAccount(api);
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await endedJobWithDelivery(account));
      const all = await get('/v1/webhooks/deliveries', account.liveKey).expect(200);
      expect(all.body.data.map((d: { id: string }) => d.id)).toEqual(made.map((m) => m.deliveryId).reverse());
      expect(all.body.data[0]).toEqual({
        id: made[2].deliveryId,
        job_id: made[2].jobId,
        url: hook,
        status: 'pending',
        attempt_count: 0,
        replays: 0,
        next_attempt_at: expect.any(String),
        last_status_code: null,
        last_error: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        delivered_at: null,
      });
      expect(all.body.next).toBeNull();

      const one = await get('/v1/webhooks/deliveries?limit=2', account.liveKey).expect(200);
      expect(one.body.data).toHaveLength(2);
      const rest = await get(
        `/v1/webhooks/deliveries?limit=2&cursor=${one.body.next}`,
        account.liveKey,
      ).expect(200);
      expect(rest.body).toEqual({ data: [expect.objectContaining({ id: made[0].deliveryId })], next: null });

      const byJob = await get(`/v1/webhooks/deliveries?job_id=${made[1].jobId}`, account.liveKey).expect(200);
      expect(byJob.body.data.map((d: { id: string }) => d.id)).toEqual([made[1].deliveryId]);
      expect(
        (await get('/v1/webhooks/deliveries?status=failed', account.liveKey).expect(200)).body.data,
      ).toEqual([]);

      expect(
        (await get('/v1/webhooks/deliveries?status=dead', account.liveKey).expect(400)).body.errors[0].field,
      ).toBe('status');
      expect(
        (await get('/v1/webhooks/deliveries?cursor=abc', account.liveKey).expect(400)).body.errors[0].field,
      ).toBe('cursor');
    });

    it('shows one delivery with its logged payload and attempts', async () => {
      const { jobId, deliveryId } = await endedJobWithDelivery(a);
      const res = await get(`/v1/webhooks/deliveries/${deliveryId}`, a.liveKey).expect(200);
      expect(res.body).toMatchObject({ id: deliveryId, job_id: jobId, status: 'pending', attempts: [] });
      const job = await get(`/v1/jobs/${jobId}`, a.liveKey).expect(200);
      expect(res.body.payload).toEqual({ job_id: jobId, status: 'completed', result: job.body.result });
    });

    it('creates one delivery per job however often its end is reported', async () => {
      const { jobId, deliveryId } = await endedJobWithDelivery(a);
      const again = await Promise.all([1, 2, 3].map(() => api.app.get(WebhookDeliveries).jobEnded(jobId)));
      expect(again).toEqual([deliveryId, deliveryId, deliveryId]);
      const rows = await db.query('SELECT id FROM webhook_deliveries WHERE job_id = ?', [jobId]);
      expect(rows).toHaveLength(1);
    });

    it('creates none for a job without webhook_url or not ended', async () => {
      const deliveries = api.app.get(WebhookDeliveries);
      const quiet = await insertEndedJob(db, { accountId: a.id, webhookUrl: null });
      expect(await deliveries.jobEnded(quiet)).toBeNull();
      const running = await insertEndedJob(db, { accountId: a.id, webhookUrl: hook });
      await db.query(`UPDATE jobs SET status = 'running' WHERE id = ?`, [running]);
      expect(await deliveries.jobEnded(running)).toBeNull();
      expect(await deliveries.jobEnded('job_00000000000000000000000000')).toBeNull();
    });

    it('a cancelled job with a webhook_url gets its delivery when cancelled', async () => {
      const res = await post('/v1/scrape/async', a.liveKey, {
        url: 'https://127.0.0.1:9/page',
        webhook_url: hook,
      });
      const jobId = res.body.job_id;
      await api.http().delete(`/v1/jobs/${jobId}`).set('Authorization', `Bearer ${a.liveKey}`).expect(200);
      const list = await get(`/v1/webhooks/deliveries?job_id=${jobId}`, a.liveKey).expect(200);
      expect(list.body.data).toHaveLength(1);
      const one = await get(`/v1/webhooks/deliveries/${list.body.data[0].id}`, a.liveKey).expect(200);
      expect(one.body.payload).toEqual({ job_id: jobId, status: 'cancelled', result: null });
    });

    it('replays one delivery or a filtered set, only the caller’s', async () => {
      const account = await createAccount(api);
      const first = await endedJobWithDelivery(account);
      const second = await endedJobWithDelivery(account);
      await db.query(`UPDATE webhook_deliveries SET status = 'failed', attempt_count = 6 WHERE id IN (?)`, [
        [first.deliveryId, second.deliveryId],
      ]);
      const one = await post(`/v1/webhooks/deliveries/${first.deliveryId}/replay`, account.liveKey).expect(
        202,
      );
      expect(one.body).toMatchObject({
        id: first.deliveryId,
        status: 'pending',
        replays: 1,
        attempt_count: 6,
      });

      const since = new Date(Date.now() - 60_000).toISOString();
      const bulk = await post('/v1/webhooks/deliveries/replay', account.liveKey, {
        status: 'failed',
        since,
      }).expect(202);
      expect(bulk.body).toEqual({ replayed: 1, next: null });
      const later = await post('/v1/webhooks/deliveries/replay', account.liveKey, {
        since: new Date(Date.now() + 60_000).toISOString(),
      }).expect(202);
      expect(later.body).toEqual({ replayed: 0, next: null });
      const bad = await post('/v1/webhooks/deliveries/replay', account.liveKey, {
        since: 'yesterday',
      }).expect(400);
      expect(bad.body.errors[0].field).toBe('since');
      const rows = await db.query(
        'SELECT id, status, replays FROM webhook_deliveries WHERE id IN (?) ORDER BY id',
        [[first.deliveryId, second.deliveryId]],
      );
      expect(rows).toEqual([
        { id: first.deliveryId, status: 'pending', replays: 1 },
        { id: second.deliveryId, status: 'pending', replays: 1 },
      ]);
    });

    it('another account or the other environment sees none of it (404), and cannot replay it', async () => {
      const { deliveryId } = await endedJobWithDelivery(a);
      for (const key of [b.liveKey, a.testKey]) {
        expect((await get(`/v1/webhooks/deliveries/${deliveryId}`, key).expect(404)).body.code).toBe(
          'not_found',
        );
        await post(`/v1/webhooks/deliveries/${deliveryId}/replay`, key).expect(404);
        const list = await get('/v1/webhooks/deliveries', key).expect(200);
        expect(list.body.data.map((d: { id: string }) => d.id)).not.toContain(deliveryId);
        expect((await post('/v1/webhooks/deliveries/replay', key, {}).expect(202)).body.replayed).toBe(0);
      }
      const [row] = await db.query('SELECT replays FROM webhook_deliveries WHERE id = ?', [deliveryId]);
      expect(row.replays).toBe(0);
      await get('/v1/webhooks/deliveries/not-an-id', a.liveKey).expect(404);
    });
  });
});
