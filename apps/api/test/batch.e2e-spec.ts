import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { FixtureSite, startFixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { allResults, waitForJob } from '../../../test/support/jobs';

describe('batches', () => {
  let site: FixtureSite;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;
  const post = (body: unknown, key = account.liveKey) =>
    api
      .http()
      .post('/v1/scrape/batch/async')
      .set('Authorization', `Bearer ${key}`)
      .send(body as object);

  beforeAll(async () => {
    site = await startFixtureSite();
    api = await startApi();
    worker = await startWorker();
    account = await createAccount(api, 'enterprise');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await site?.close();
  });

  it('completes a 5,000-URL batch with exact counts and every page in input order, without starving a sync scrape', async () => {
    const other = await createAccount(api, 'pro');
    const sync = async () => {
      const res = await api
        .http()
        .post('/v1/scrape')
        .set('Authorization', `Bearer ${other.liveKey}`)
        .send({ url: `${site.origin}/static/article/9999` })
        .expect(200);
      expect(res.body.error).toBeUndefined();
    };

    const urls = Array.from({ length: 5000 }, (_, i) => `${site.origin}/static/article/${i + 1}`);
    const accepted = await post({ urls, format: 'markdown' }).expect(202);
    expect(accepted.body).toEqual({ status: 'queued', job_id: expect.stringMatching(/^job_/) });
    const id = accepted.body.job_id;

    // While the batch runs, another account's sync scrapes are answered, not queued behind it: the
    // batch is still running, with most of its pages to go, when the last of them returns.
    await new Promise((r) => setTimeout(r, 3000));
    for (let i = 0; i < 3; i++) await sync();
    const running = await api.http().get(`/v1/jobs/${id}`).set('Authorization', `Bearer ${account.liveKey}`);
    expect(running.body.status).toBe('running');
    expect(running.body.completed).toBeLessThan(2500);

    const job = await waitForJob(api, account.liveKey, id, 240_000);
    expect(job).toMatchObject({
      status: 'completed',
      type: 'batch',
      total: 5000,
      completed: 5000,
      failed: 0,
    });
    const data = await allResults(api, account.liveKey, id);
    expect(data.map((p) => p.index)).toEqual(urls.map((_, i) => i));
    expect(data.map((p) => p.url)).toEqual(urls);
    for (const page of data) {
      expect(page.markdown).toMatch(/^# \S/);
      expect(page.error).toBeUndefined();
    }
  }, 300_000);

  it('reports duplicates and failures per URL', async () => {
    const a = `${site.origin}/static/article/17`;
    const urls = [a, `${site.origin}/status/404`, a, `${site.origin}/slow?ms=5000`, a];
    const { body } = await post({ urls, timeout: 1000 }).expect(202);
    const job = await waitForJob(api, account.liveKey, body.job_id);
    expect(job).toMatchObject({ status: 'completed', total: 5, completed: 3, failed: 2 });
    const data = await allResults(api, account.liveKey, body.job_id);
    expect(data.map((p) => [p.index, p.url, p.error?.code ?? null])).toEqual([
      [0, a, null],
      [1, urls[1], 'HTTP_4XX'],
      [2, a, null],
      [3, urls[3], 'TIMEOUT'],
      [4, a, null],
    ]);
    expect(data[1].status_code).toBe(404);
  });

  it('cancels mid-way: no new page starts and unstarted pages go back to the quota', async () => {
    const db = api.app.get(DataSource);
    const month = `${new Date().toISOString().slice(0, 7)}-01`;
    const reserved = async () =>
      Number(
        (
          await db.query(
            'SELECT reserved FROM quota_monthly WHERE account_id = ? AND environment = ? AND month = ?',
            [account.id, 'production', month],
          )
        )[0]?.reserved ?? 0,
      );
    const urls = Array.from({ length: 200 }, (_, i) => `${site.origin}/slow?ms=100&n=${i}`);
    const before = await reserved();
    const { body } = await post({ urls }).expect(202);
    expect(await reserved()).toBe(before + 200);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await api
        .http()
        .get(`/v1/jobs/${body.job_id}`)
        .set('Authorization', `Bearer ${account.liveKey}`);
      if (res.body.completed >= 5) break;
      if (Date.now() > deadline) throw new Error('batch never started');
      await new Promise((r) => setTimeout(r, 100));
    }
    const cancelled = await api
      .http()
      .delete(`/v1/jobs/${body.job_id}`)
      .set('Authorization', `Bearer ${account.liveKey}`)
      .expect(200);
    expect(cancelled.body.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 1500));
    const settled = await api
      .http()
      .get(`/v1/jobs/${body.job_id}`)
      .set('Authorization', `Bearer ${account.liveKey}`);
    await new Promise((r) => setTimeout(r, 1500));
    const later = await api
      .http()
      .get(`/v1/jobs/${body.job_id}`)
      .set('Authorization', `Bearer ${account.liveKey}`);
    expect(later.body).toMatchObject({ status: 'cancelled', completed: settled.body.completed, failed: 0 });
    expect(later.body.completed).toBeLessThan(200);
    // Pages that never started were refunded; finished ones (and ones in flight at cancel) were not.
    const charged = (await reserved()) - before;
    expect(charged).toBeGreaterThanOrEqual(later.body.completed);
    expect(charged).toBeLessThanOrEqual(later.body.completed + 2 * 12);
  });

  it('replays an Idempotency-Key for batches and refuses it with another body', async () => {
    const urls = [`${site.origin}/static/article/21`, `${site.origin}/static/article/22`];
    const first = await post({ urls }).set('Idempotency-Key', 'batch-key-1').expect(202);
    const again = await post({ urls }).set('Idempotency-Key', 'batch-key-1').expect(202);
    expect(again.body.job_id).toBe(first.body.job_id);
    await post({ urls: urls.slice(1) })
      .set('Idempotency-Key', 'batch-key-1')
      .expect(409);
    // The key is the caller's: another account may use the same key for its own job.
    const other = await createAccount(api);
    const theirs = await post({ urls }, other.liveKey).set('Idempotency-Key', 'batch-key-1').expect(202);
    expect(theirs.body.job_id).not.toBe(first.body.job_id);
  });

  it('lists the first bad indices with the reason', async () => {
    const urls = Array.from({ length: 50 }, (_, i) => `${site.origin}/static/article/${i + 1}`);
    urls[3] = 'ftp://127.0.0.1/x';
    urls[7] = 'http://127.0.0.2/';
    (urls as unknown[])[9] = 42;
    const res = await post({ urls }).expect(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['urls[3]', 'urls[7]', 'urls[9]']);
    expect(res.body.detail).toMatch(/^urls\[3\]: must use http or https/);
    await post({ urls: [] }).expect(400);
    await post({ urls: 'http://127.0.0.1/' }).expect(400);
  });

  it('refuses a million and one URLs with 400, and a body over the limit with 413', async () => {
    // Over a real socket: supertest's in-process serialisation of 60 MB is slower than the server.
    const server = api.app.getHttpServer();
    if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const tooMany = JSON.stringify({ urls: new Array(1_000_001).fill(`${site.origin}/static/article/1`) });
    const res = await fetch(`http://127.0.0.1:${port}/v1/scrape/batch/async`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.liveKey}`, 'content-type': 'application/json' },
      body: tooMany,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { field: string; message: string }[] };
    expect(body.errors[0]).toMatchObject({
      field: 'urls',
      message: expect.stringMatching(/at most 1000000/),
    });

    // A body just over the 128 MB limit.
    const huge = `{"urls": ["${'x'.repeat(129 * 1024 * 1024)}"]}`;
    const tooBig = await fetch(`http://127.0.0.1:${port}/v1/scrape/batch/async`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.liveKey}`, 'content-type': 'application/json' },
      body: huge,
    });
    const answer = { status: tooBig.status, body: await tooBig.text() };
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      code: 'payload_too_large',
      detail: 'Request body is too large: at most 128 MB',
    });
  });
});

// No worker here: the batch is only accepted, never expanded or rendered.
describe('batch acceptance', () => {
  let site: FixtureSite;
  let api: ApiHarness;

  beforeAll(async () => {
    site = await startFixtureSite();
    api = await startApi();
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  it('stores a list that compresses badly, whose chunks together pass the 16 MB packet limit', async () => {
    const account = await createAccount(api, 'enterprise');
    const server = api.app.getHttpServer();
    if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    // 16 random bytes a URL: 500,000 of them compress to over 8 MB, over 16 MB as hex in SQL.
    const urls = Array.from(
      { length: 500_000 },
      () => `${site.origin}/static/article/1?r=${randomBytes(16).toString('hex')}`,
    );
    const res = await fetch(`http://127.0.0.1:${port}/v1/scrape/batch/async`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.liveKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ urls }),
    });
    expect(res.status).toBe(202);
    const { job_id: id } = (await res.json()) as { job_id: string };
    const job = await api.http().get(`/v1/jobs/${id}`).set('Authorization', `Bearer ${account.liveKey}`);
    expect(job.body).toMatchObject({ status: 'queued', total: 500_000 });
    // Cancelled, so the workers of later suites (same database and queues) do not expand it.
    await api.http().delete(`/v1/jobs/${id}`).set('Authorization', `Bearer ${account.liveKey}`).expect(200);
  });
});
