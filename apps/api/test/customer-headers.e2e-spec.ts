import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { startTwoOrigins, type SeenRequest, type TwoOrigins } from '../../../test/fixtures/two-origins';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { allResults, waitForJob } from '../../../test/support/jobs';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';

// The caller's headers are secrets (docs/api.md, Request options): sealed wherever they are kept
// (the jobs row, a sync scrape's queue payload), echoed nowhere, logged never, and still sent to
// the target by the worker, which opens them for the render.
describe("the caller's headers: sealed at rest, opened only for the render", () => {
  let sites: TwoOrigins;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;
  let db: DataSource;
  const post = (path: string, body: object) =>
    api.http().post(path).set('Authorization', `Bearer ${account.liveKey}`).send(body);
  const carrying = (requests: readonly SeenRequest[], token: string) =>
    requests.filter((r) => r.headers['x-customer-token'] === token).map((r) => r.path);

  beforeAll(async () => {
    sites = await startTwoOrigins();
    api = await startApi();
    worker = await startWorker();
    account = await createAccount(api, 'pro');
    db = api.app.get(DataSource);
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await sites?.close();
  });
  beforeEach(() => sites.reset());

  it('stores a job with its headers sealed, renders with them, and never shows them', async () => {
    const token = 'tok-stored-4f1c9a';
    const accepted = await post('/v1/scrape/async', {
      url: `${sites.target}/page`,
      render: 'http',
      headers: { 'X-Customer-Token': token },
    }).expect(202);
    const jobId = accepted.body.job_id as string;

    // As stored: the text of the column, not the driver's parse of it.
    const [row] = await db.query('SELECT CAST(options AS CHAR) AS options FROM jobs WHERE id = ?', [jobId]);
    const stored = row.options as string;
    expect(stored).not.toContain(token);
    expect(stored).not.toMatch(/x-customer-token/i);
    expect(JSON.parse(stored)).toMatchObject({ sealed_headers: expect.stringMatching(/^v1\./) });

    const job = await waitForJob(api, account.liveKey, jobId);
    expect(job.status).toBe('completed');
    expect(job.result.error).toBeUndefined();
    expect(carrying(sites.seen('target'), token)).toEqual(['/page']);
    expect(JSON.stringify(job)).not.toContain(token);
    const listed = await api
      .http()
      .get('/v1/jobs')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect(api.logs.join('')).not.toContain(token);
  });

  it('keeps no plain hash of them for an Idempotency-Key, and still tells another value apart', async () => {
    const body = {
      url: `${sites.target}/page`,
      render: 'http',
      headers: { 'X-Customer-Token': 'tok-idem-1' },
    };
    const send = (b: object) => post('/v1/scrape/async', b).set('Idempotency-Key', 'customer-headers-idem');
    const first = await send(body).expect(202);
    expect((await send(body).expect(202)).body.job_id).toBe(first.body.job_id);
    await send({ ...body, headers: { 'X-Customer-Token': 'tok-idem-2' } }).expect(409);
    const [row] = await db.query('SELECT request_hash FROM jobs WHERE id = ?', [first.body.job_id]);
    const plain = createHash('sha256').update(JSON.stringify(body)).digest('hex');
    expect(row.request_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.request_hash).not.toBe(plain);
    await waitForJob(api, account.liveKey, first.body.job_id);
  });

  it("gives a crawl's headers only to its start URL's origin", async () => {
    const token = 'tok-crawl-77d2e0';
    const accepted = await post('/v1/crawl', {
      url: `${sites.target}/links`,
      render: 'http',
      allow_external_links: true,
      ignore_sitemap: true,
      headers: { 'X-Customer-Token': token },
    }).expect(202);
    const job = await waitForJob(api, account.liveKey, accepted.body.job_id);
    expect(job.status).toBe('completed');
    const urls = (await allResults(api, account.liveKey, job.job_id)).map((p) => p.url);
    expect(urls).toEqual(expect.arrayContaining([`${sites.target}/page`, `${sites.other}/landing`]));
    expect(carrying(sites.seen('target'), token)).toEqual(expect.arrayContaining(['/links', '/page']));
    expect(sites.seen('other').map((r) => r.path)).toContain('/landing');
    expect(carrying(sites.seen('other'), token)).toEqual([]);
  });

  it('seals a sync scrape in its queue payload and renders with the browser', async () => {
    const token = 'tok-sync-c0ffee';
    const res = await post('/v1/scrape', {
      url: `${sites.target}/page`,
      render: 'browser',
      engine: 'puppeteer',
      block_resources: false,
      headers: { 'X-Customer-Token': token },
    }).expect(200);
    expect(res.body.error).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain(token);
    expect(carrying(sites.seen('target'), token)).toContain('/page');
    expect(sites.seen('other').length).toBeGreaterThan(0);
    expect(carrying(sites.seen('other'), token)).toEqual([]);

    // The finished sync job is kept in Redis a minute: its payload holds the sealed form only.
    const redis = new Redis(api.env.REDIS_URL);
    try {
      const keys = await redis.keys(`${api.env.REDIS_PREFIX}:bull:render:*`);
      const payloads: string[] = [];
      for (const key of keys) {
        if ((await redis.type(key)) === 'hash') payloads.push((await redis.hget(key, 'data')) ?? '');
      }
      const sync = payloads.filter(
        (data) => data.includes(`${sites.target}/page`) && data.includes('puppeteer'),
      );
      expect(sync.length).toBeGreaterThan(0);
      for (const data of sync) {
        expect(data).toContain('sealed_headers');
        expect(data).not.toContain(token);
      }
    } finally {
      redis.disconnect();
    }
    expect(api.logs.join('')).not.toContain(token);
  });
});
