import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Test, TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { ConfigModule } from '@app/config';
import { PersistenceModule, RedisModule } from '@app/persistence';
import { AuthCache, UsageFlusher, UsageModule, UsageRecorder } from '@app/auth';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

const RATE_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit-policy',
  'ratelimit',
];

describe('limits: per-minute bucket, headers, usage figures', () => {
  let api: ApiHarness;
  let db: DataSource;
  let base: string;
  let t60: number;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    // Real sockets: 200 concurrent requests need a listening server, not supertest's per-request one.
    await api.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
    const name = `t60_${randomBytes(4).toString('hex')}`;
    await db.query(
      'INSERT INTO plans (name, rate_per_minute, monthly_quota, max_concurrent_pages) VALUES (?, 60, 1000, 2)',
      [name],
    );
    [{ id: t60 }] = await db.query<{ id: number }[]>('SELECT id FROM plans WHERE name = ?', [name]);
  });
  afterAll(async () => api.close());

  const accountOn60 = async (): Promise<TestAccount> => {
    const account = await createAccount(api, 'starter');
    await db.query('UPDATE accounts SET plan_id = ? WHERE id = ?', [t60, account.id]);
    return account;
  };

  const call = async (key: string, path = '/v1/me', init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(base + path, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };

  const int = (a: Answer, header: string) => Number(a.headers.get(header));

  /** The invariants of a 60/min bucket refilling 1 token a second, whatever the answer's status. */
  const expectConsistentHeaders = (a: Answer) => {
    for (const h of RATE_HEADERS) expect(a.headers.get(h)).toBeTruthy();
    const remaining = int(a, 'x-ratelimit-remaining');
    expect(int(a, 'x-ratelimit-limit')).toBe(60);
    expect(a.headers.get('ratelimit-policy')).toBe('"per-minute";q=60;w=60');
    if (a.status === 429) {
      expect(remaining).toBe(0);
      expect(int(a, 'x-ratelimit-reset')).toBe(60);
      expect(int(a, 'retry-after')).toBe(1);
      expect(a.headers.get('ratelimit')).toBe('"per-minute";r=0;t=1');
    } else {
      // Holding between r and r+1 tokens, the bucket is full in (59 - r, 60 - r] seconds: ceil is 60 - r.
      expect(int(a, 'x-ratelimit-reset')).toBe(60 - remaining);
      expect(a.headers.get('ratelimit')).toBe(`"per-minute";r=${remaining};t=${60 - remaining}`);
      expect(a.headers.get('retry-after')).toBeNull();
    }
  };

  it('admits exactly the bucket plus what refilled during a 200-request burst, then refills at 1/s', async () => {
    const account = await accountOn60();
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 200 }, () => call(account.liveKey)));
    const seconds = (performance.now() - started) / 1000;
    const admitted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(admitted.length + refused.length).toBe(200);
    expect(admitted.length).toBeGreaterThanOrEqual(60);
    expect(admitted.length).toBeLessThanOrEqual(60 + Math.ceil(seconds) + 1);
    for (const a of refused) {
      expect(a.body).toEqual({ detail: 'Rate limit exceeded', code: 'rate_limited' });
      expect(int(a, 'retry-after')).toBeGreaterThanOrEqual(1);
    }
    for (const a of answers) expectConsistentHeaders(a);
    // Every answer took one token: each remaining count from 59 down to 0 was handed out.
    const remainings = new Set(admitted.map((a) => int(a, 'x-ratelimit-remaining')));
    for (let r = 0; r < 60; r++) expect(remainings).toContain(r);

    // Empty now (under one token); three seconds later three more tokens, not four or more.
    await new Promise((r) => setTimeout(r, 3000));
    const later: Answer[] = [];
    for (let i = 0; i < 6; i++) later.push(await call(account.liveKey));
    const refilled = later.filter((a) => a.status === 200).length;
    expect(refilled).toBeGreaterThanOrEqual(3);
    expect(refilled).toBeLessThanOrEqual(4);
    expect(later.at(-1)!.status).toBe(429);
    for (const a of later) expectConsistentHeaders(a);
  });

  it('gives production and sandbox their own bucket', async () => {
    const account = await accountOn60();
    const burst = await Promise.all(Array.from({ length: 70 }, () => call(account.liveKey)));
    expect(burst.some((a) => a.status === 429)).toBe(true);
    const sandbox = await call(account.testKey);
    expect(sandbox.status).toBe(200);
    expect(int(sandbox, 'x-ratelimit-remaining')).toBe(59);
  });

  it('sets consistent headers on 200, 400, 404 and 429 answers, and none without a caller', async () => {
    const account = await accountOn60();
    const ok = await call(account.liveKey);
    const invalid = await call(account.liveKey, '/v1/keys', { method: 'POST', body: '{"bogus":1}' });
    const missing = await call(account.liveKey, '/v1/keys/key_none', { method: 'DELETE' });
    expect([ok.status, invalid.status, missing.status]).toEqual([200, 400, 404]);
    expect([ok, invalid, missing].map((a) => int(a, 'x-ratelimit-remaining'))).toEqual([59, 58, 57]);
    for (const a of [ok, invalid, missing]) expectConsistentHeaders(a);

    const rest = await Promise.all(Array.from({ length: 60 }, () => call(account.liveKey)));
    const limited = rest.find((a) => a.status === 429)!;
    expect(limited).toBeDefined();
    expectConsistentHeaders(limited);

    const anonymous = await fetch(`${base}/v1/me`);
    const health = await fetch(`${base}/healthz`);
    expect([anonymous.status, health.status]).toEqual([401, 200]);
    for (const res of [anonymous, health])
      for (const h of RATE_HEADERS) expect(res.headers.get(h)).toBeNull();
  });

  it('applies a plan change on the next request', async () => {
    const account = await accountOn60();
    expect(int(await call(account.liveKey), 'x-ratelimit-limit')).toBe(60);
    await db.query("UPDATE accounts SET plan_id = (SELECT id FROM plans WHERE name = 'pro') WHERE id = ?", [
      account.id,
    ]);
    // What every write to a plan or an account does before it answers.
    await api.app.get(AuthCache).invalidate();
    const after = await call(account.liveKey);
    expect(int(after, 'x-ratelimit-limit')).toBe(300);
    expect(after.headers.get('ratelimit-policy')).toBe('"per-minute";q=300;w=60');
    expect(after.body.user).toMatchObject({ plan: 'pro', limit: 500000 });
  });

  describe('usage figures', () => {
    let worker: TestingModule;

    // The worker's side: UsageModule as the worker imports it, on the same database and Redis.
    beforeAll(async () => {
      worker = await Test.createTestingModule({
        imports: [ConfigModule.forApi(api.env), PersistenceModule.forRoot(4), RedisModule, UsageModule],
      }).compile();
      await worker.init();
    });
    afterAll(async () => worker.close());

    it('shows the exact figures of a known mix of successes and failures after a flush', async () => {
      const account = await createAccount(api, 'pro');
      const recorder = worker.get(UsageRecorder);
      const now = new Date();
      const today = now.toISOString().slice(0, 10);
      const earlier = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 12));
      const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 20));
      const production: [boolean, number, Date][] = [
        [true, 1200, now],
        [true, 800, now],
        [true, 433, now],
        [false, 30000, now],
        [true, 999, now],
        [false, 1, now],
        [true, 250, earlier],
        [false, 5000, earlier],
        [true, 7, lastMonth],
      ];
      await Promise.all([
        ...production.map(([succeeded, renderMs, at]) =>
          recorder.record(account.id, 'production', { succeeded, renderMs }, at),
        ),
        recorder.record(account.id, 'sandbox', { succeeded: true, renderMs: 50 }, now),
        recorder.record(account.id, 'sandbox', { succeeded: false, renderMs: 150 }, now),
      ]);
      // Nothing reaches MySQL before a flush: the page path only touches Redis.
      expect((await call(account.liveKey)).body.usage).toMatchObject({ requests_this_month: 0 });
      await worker.get(UsageFlusher).flush();

      const month = production.filter(([, , at]) => at !== lastMonth);
      const todays =
        earlier.toISOString().slice(0, 10) === today ? month : month.filter(([, , at]) => at === now);
      const totalMs = month.reduce((sum, [, ms]) => sum + ms, 0);
      const ok = month.filter(([succeeded]) => succeeded).length;
      expect((await call(account.liveKey)).body.usage).toEqual({
        requests_this_month: month.length,
        requests_today: todays.length,
        avg_response_ms: Math.round((totalMs / month.length) * 10) / 10,
        success_rate: Math.round((ok / month.length) * 10000) / 10000,
      });
      expect((await call(account.testKey)).body.usage).toEqual({
        requests_this_month: 2,
        requests_today: 2,
        avg_response_ms: 100,
        success_rate: 0.5,
      });
    });
  });
});
