import { DataSource } from 'typeorm';
import { generateApiKey } from '@app/auth';
import { ApiHarness, createAccount, startApi } from '../../../test/support/api-harness';

describe('spine: keys, /v1/me, errors', () => {
  let api: ApiHarness;
  let db: DataSource;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
  });
  afterAll(async () => api.close());

  const me = (key?: string) => {
    const req = api.http().get('/v1/me');
    return key === undefined ? req : req.set('Authorization', `Bearer ${key}`);
  };

  it('answers /v1/me in the spec shape for a production and a sandbox key, zeros for a new account', async () => {
    const account = await createAccount(api, 'starter');
    for (const key of [account.liveKey, account.testKey]) {
      const res = await me(key).expect(200);
      expect(res.body).toEqual({
        user: { email: account.email, plan: 'starter', limit: 50000 },
        usage: { requests_this_month: 0, requests_today: 0, avg_response_ms: 0, success_rate: 0 },
      });
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('computes usage from usage_daily for the key environment only', async () => {
    const account = await createAccount(api, 'pro');
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const monthStart = `${today.slice(0, 7)}-01`;
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15))
      .toISOString()
      .slice(0, 10);
    const rows: [string, string, number, number, number, number][] = [
      ['production', today, 10, 9, 1, 5000],
      ['sandbox', today, 3, 1, 2, 300],
      ['production', lastMonth, 100, 100, 0, 1],
    ];
    if (monthStart !== today) rows.push(['production', monthStart, 30, 21, 9, 15000]);
    for (const [env, day, pages, ok, failed, ms] of rows) {
      await db.query(
        'INSERT INTO usage_daily (account_id, environment, day, pages, succeeded, failed, render_ms_total) VALUES (?,?,?,?,?,?,?)',
        [account.id, env, day, pages, ok, failed, ms],
      );
    }
    const prod = (await me(account.liveKey).expect(200)).body.usage;
    const monthPages = monthStart !== today ? 40 : 10;
    const monthOk = monthStart !== today ? 30 : 9;
    const monthMs = monthStart !== today ? 20000 : 5000;
    expect(prod).toEqual({
      requests_this_month: monthPages,
      requests_today: 10,
      avg_response_ms: Math.round((monthMs / monthPages) * 10) / 10,
      success_rate: Math.round((monthOk / monthPages) * 10000) / 10000,
    });
    const sandbox = (await me(account.testKey).expect(200)).body.usage;
    expect(sandbox).toEqual({
      requests_this_month: 3,
      requests_today: 3,
      avg_response_ms: 100,
      success_rate: 0.3333,
    });
  });

  it('gives one identical 401 for missing, malformed, unknown and revoked keys', async () => {
    const account = await createAccount(api);
    const revoked = account.keys.find((k) => k.environment === 'production')!;
    await api.admin(api.http().delete(`/admin/v1/keys/${revoked.id}`)).expect(200);
    const unknown = generateApiKey('production').key;
    const malformed = `${unknown.slice(0, -1)}${unknown.endsWith('a') ? 'b' : 'a'}`;
    const answers = await Promise.all([me(), me(malformed), me(unknown), me(revoked.key), me('osk_live_x')]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    const bodies = new Set(answers.map((r) => JSON.stringify(r.body)));
    expect(bodies.size).toBe(1);
    expect(answers[0].body).toEqual({ detail: 'Missing or invalid API key', code: 'unauthorized' });
  });

  it('stops a revoked key on the very next request, and a new key works at once', async () => {
    const account = await createAccount(api);
    await me(account.testKey).expect(200);
    const sandboxKey = account.keys.find((k) => k.environment === 'sandbox')!;
    const issued = await api
      .admin(api.http().post(`/admin/v1/accounts/${account.id}/keys`))
      .send({ environment: 'sandbox' })
      .expect(201);
    expect(issued.body.key).toMatch(/^osk_test_/);
    await api.admin(api.http().delete(`/admin/v1/keys/${sandboxKey.id}`)).expect(200);
    await me(account.testKey).expect(401);
    await me(issued.body.key).expect(200);
    await me(account.liveKey).expect(200);
  });

  it('lets a customer rotate its own key without support, never showing a key twice', async () => {
    const account = await createAccount(api);
    const created = await api
      .http()
      .post('/v1/keys')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({})
      .expect(201);
    expect(created.body.key).toMatch(/^osk_live_/);
    const list = await api
      .http()
      .get('/v1/keys')
      .set('Authorization', `Bearer ${created.body.key}`)
      .expect(200);
    expect(list.body.data).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    expect(JSON.stringify(list.body)).not.toContain(account.liveKey);
    const old = account.keys.find((k) => k.environment === 'production')!;
    await api
      .http()
      .delete(`/v1/keys/${old.id}`)
      .set('Authorization', `Bearer ${created.body.key}`)
      .expect(200);
    await me(account.liveKey).expect(401);
    // Another account's key id, or one of the other environment, is not found.
    const other = await createAccount(api);
    await api
      .http()
      .delete(`/v1/keys/${other.keys[0].id}`)
      .set('Authorization', `Bearer ${created.body.key}`)
      .expect(404);
    const sandbox = account.keys.find((k) => k.environment === 'sandbox')!;
    await api
      .http()
      .delete(`/v1/keys/${sandbox.id}`)
      .set('Authorization', `Bearer ${created.body.key}`)
      .expect(404);
  });

  it('refuses the admin API without ADMIN_TOKEN or with a customer key', async () => {
    const account = await createAccount(api);
    await api.http().post('/admin/v1/accounts').send({ email: 'x@example.test', plan: 'free' }).expect(401);
    await api
      .http()
      .post('/admin/v1/accounts')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ email: 'x@example.test', plan: 'free' })
      .expect(401);
  });

  it('validates admin input with the API error bodies', async () => {
    const bad = await api
      .admin(api.http().post('/admin/v1/accounts'))
      .send({ email: 'nope', plan: 'free' })
      .expect(400);
    expect(bad.body).toMatchObject({ code: 'invalid_request', errors: [{ field: 'email' }] });
    const unknownPlan = await api
      .admin(api.http().post('/admin/v1/accounts'))
      .send({ email: 'ok@example.test', plan: 'platinum' })
      .expect(400);
    expect(unknownPlan.body).toMatchObject({ code: 'invalid_request', errors: [{ field: 'plan' }] });
    const extra = await api
      .admin(api.http().post('/admin/v1/accounts'))
      .send({ email: 'ok@example.test', plan: 'free', admin: true })
      .expect(400);
    expect(extra.body.errors[0]).toMatchObject({ field: 'admin' });
    const malformed = await api
      .admin(api.http().post('/admin/v1/accounts'))
      .set('Content-Type', 'application/json')
      .send('{"email": ')
      .expect(400);
    expect(malformed.body.code).toBe('invalid_request');
    expect(malformed.body.detail).toMatch(/JSON/);
    const huge = await api
      .admin(api.http().post('/admin/v1/accounts'))
      .send({ email: 'ok@example.test', plan: 'x'.repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');
    const account = await createAccount(api);
    const dup = await api
      .admin(api.http().post('/admin/v1/accounts'))
      .send({ email: account.email, plan: 'free' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('conflict');
    const missing = await api
      .http()
      .get('/v1/nothing-here')
      .set('Authorization', `Bearer ${account.liveKey}`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('answers health and readiness without a key, with x-request-id echoed', async () => {
    await api.http().get('/healthz').expect(200, { status: 'ok' });
    const ready = await api.http().get('/readyz').set('x-request-id', 'probe-1').expect(200);
    expect(ready.body.checks).toEqual({ mysql: 'ok', redis: 'ok' });
    expect(ready.headers['x-request-id']).toBe('probe-1');
  });

  it('never writes a key into the logs', async () => {
    const account = await createAccount(api);
    api.logs.length = 0;
    await me(account.liveKey).expect(200);
    await me(`${account.liveKey}x`).expect(401);
    const created = await api
      .http()
      .post('/v1/keys')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({})
      .expect(201);
    await new Promise((r) => setTimeout(r, 50));
    const text = api.logs.join('');
    expect(api.logs.length).toBeGreaterThanOrEqual(3);
    expect(text).toContain('/v1/me');
    for (const secret of [account.liveKey, created.body.key, api.env.ADMIN_TOKEN!])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/osk_(live|test)_[0-9A-Za-z]{20,}/);
  });
});
