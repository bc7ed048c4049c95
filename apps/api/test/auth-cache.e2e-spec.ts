import { Test, TestingModule } from '@nestjs/testing';
import { getRepositoryToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ConfigModule } from '@app/config';
import { PersistenceModule, RedisModule, UsageDaily } from '@app/persistence';
import { ApiKeysService, AuthCache, UsageFlusher, UsageModule, UsageRecorder } from '@app/auth';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';

/**
 * The per-request caches (resolved keys, /v1/me figures) across two API replicas on one database
 * and Redis: a change made through one replica applies on the other's very next request.
 */
describe('auth and usage caches across replicas', () => {
  let a: ApiHarness;
  let b: ApiHarness;
  let db: DataSource;

  beforeAll(async () => {
    [a, b] = await Promise.all([startApi(), startApi()]);
    db = a.app.get(DataSource);
  });
  afterAll(async () => Promise.all([a.close(), b.close()]));
  afterEach(() => jest.restoreAllMocks());

  const me = (api: ApiHarness, key: string) => api.http().get('/v1/me').set('Authorization', `Bearer ${key}`);

  it('reads a known key from MySQL once, then from memory, still taking a token every call', async () => {
    const account = await createAccount(a);
    const resolve = jest.spyOn(a.app.get(ApiKeysService), 'resolve');
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await me(a, account.liveKey).expect(200);
      remaining.push(Number(res.headers['x-ratelimit-remaining']));
    }
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(remaining).toEqual([59, 58, 57]);
  });

  it('refuses a key revoked through the other replica on the very next request', async () => {
    const account = await createAccount(a);
    await me(a, account.liveKey).expect(200);
    await me(a, account.liveKey).expect(200);
    const live = account.keys.find((k) => k.environment === 'production')!;
    await b.admin(b.http().delete(`/admin/v1/keys/${live.id}`)).expect(200);
    const refused = await me(a, account.liveKey).expect(401);
    expect(refused.body).toEqual({ detail: 'Missing or invalid API key', code: 'unauthorized' });
    // The account's other key was cached before the change and is still good, after a MySQL read.
    await me(a, account.testKey).expect(200);
  });

  it('refuses a key the customer revoked through the other replica on the very next request', async () => {
    const account = await createAccount(a);
    const sandbox = account.keys.find((k) => k.environment === 'sandbox')!;
    await me(a, account.testKey).expect(200);
    await b
      .http()
      .delete(`/v1/keys/${sandbox.id}`)
      .set('Authorization', `Bearer ${account.testKey}`)
      .expect(200);
    await me(a, account.testKey).expect(401);
  });

  it('applies a plan change made through the other replica on the next request', async () => {
    const account: TestAccount = await createAccount(a);
    const before = await me(a, account.liveKey).expect(200);
    expect(before.headers['x-ratelimit-limit']).toBe('60');
    await db.query("UPDATE accounts SET plan_id = (SELECT id FROM plans WHERE name = 'pro') WHERE id = ?", [
      account.id,
    ]);
    // What every write to a plan or an account does before it answers.
    await b.app.get(AuthCache).invalidate();
    const after = await me(a, account.liveKey).expect(200);
    expect(after.headers['x-ratelimit-limit']).toBe('300');
    expect(after.body.user).toMatchObject({ plan: 'pro', limit: 500000 });
  });

  describe('/v1/me figures', () => {
    let worker: TestingModule;

    beforeAll(async () => {
      worker = await Test.createTestingModule({
        imports: [ConfigModule.forApi(a.env), PersistenceModule.forRoot(2), RedisModule, UsageModule],
      }).compile();
      await worker.init();
    });
    afterAll(async () => worker.close());

    it('are read from MySQL once per usage flush, and exact right after every flush', async () => {
      const account = await createAccount(a);
      const query = jest.spyOn(a.app.get(getRepositoryToken(UsageDaily)), 'query');
      const usage = async () => (await me(a, account.liveKey).expect(200)).body.usage;

      expect(await usage()).toMatchObject({ requests_this_month: 0 });
      expect(await usage()).toMatchObject({ requests_this_month: 0 });
      expect(query).toHaveBeenCalledTimes(1);

      const recorder = worker.get(UsageRecorder);
      await recorder.record(account.id, 'production', { succeeded: true, renderMs: 300 });
      await recorder.record(account.id, 'production', { succeeded: false, renderMs: 100 });
      await worker.get(UsageFlusher).flush();
      expect(await usage()).toEqual({
        requests_this_month: 2,
        requests_today: 2,
        avg_response_ms: 200,
        success_rate: 0.5,
      });
      await usage();
      expect(query).toHaveBeenCalledTimes(2);

      await recorder.record(account.id, 'production', { succeeded: true, renderMs: 200 });
      await worker.get(UsageFlusher).flush();
      expect(await usage()).toMatchObject({ requests_this_month: 3, success_rate: 0.6667 });
    });
  });
});
