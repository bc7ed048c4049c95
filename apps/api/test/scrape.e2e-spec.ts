import { startFixtureSite, FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { waitForJob } from '../../../test/support/jobs';
import { QueueAdapter } from '@app/queues';

describe('scrape endpoints through the render queue', () => {
  let site: FixtureSite;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;
  const post = (path: string, body: unknown, key = account.liveKey) =>
    api
      .http()
      .post(path)
      .set('Authorization', `Bearer ${key}`)
      .send(body as object);

  beforeAll(async () => {
    site = await startFixtureSite();
    api = await startApi();
    worker = await startWorker();
    account = await createAccount(api, 'pro');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await site?.close();
  });

  it('renders a page synchronously to markdown that starts with its title', async () => {
    const res = await post('/v1/scrape', { url: `${site.origin}/static/article/1` }).expect(200);
    expect(res.body).toMatchObject({ index: 0, url: `${site.origin}/static/article/1`, status_code: 200 });
    expect(res.body.markdown).toMatch(/^# \S/);
    expect(res.body.error).toBeUndefined();
    expect(res.body.metadata.engine).toBe('http');
    expect(res.body.timings.total_ms).toBeGreaterThan(0);
  });

  it('serves sync scrapes waiting at once on one pair of queue listeners, not a pair each', async () => {
    const queues = api.app.get(QueueAdapter);
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, queues.endListeners('render'))), 20);
    try {
      const tag = Date.now();
      const pages = await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          post('/v1/scrape', { url: `${site.origin}/slow?ms=300&tag=${tag}&n=${i}`, render: 'http' }).expect(
            200,
          ),
        ),
      );
      for (const [i, res] of pages.entries()) expect(res.body.url).toContain(`n=${i}`);
    } finally {
      clearInterval(watch);
    }
    expect(most).toBe(1);
  });

  it('renders a client-side page with the browser when render is auto', async () => {
    const res = await post('/v1/scrape', {
      url: `${site.origin}/spa/article/2`,
      formats: ['markdown', 'links'],
    }).expect(200);
    expect(res.body.metadata.engine).toBe('playwright');
    expect(res.body.markdown.length).toBeGreaterThan(500);
    expect(Array.isArray(res.body.links)).toBe(true);
  });

  // docs/api.md, PDF documents: whichever engine fetched it.
  it.each([
    ['auto', 'http'],
    ['http', 'http'],
    ['browser', 'playwright'],
    ['browser', 'puppeteer'],
  ])('converts a PDF to markdown with render %s, on %s', async (render, used) => {
    const { body } = await post('/v1/scrape', {
      url: `${site.origin}/pdf/report.pdf`,
      render,
      ...(render === 'browser' ? { engine: used } : {}),
      formats: ['markdown', 'html', 'links'],
    }).expect(200);
    expect(body.error).toBeUndefined();
    expect(body.status_code).toBe(200);
    expect(body.markdown).toMatch(/^# Quarterly report\n\n## Section 1\n\n/);
    expect(body.markdown).toContain('\n\n<!-- page 3 -->\n\n## Section 3\n\n');
    expect(body.html).toContain('<section data-page="1">\n<h2>Section 1</h2>');
    expect(body.links).toEqual(['http://127.0.0.1/appendix']);
    expect(body.metadata).toMatchObject({
      title: 'Quarterly report',
      author: 'Fixture Author',
      page_count: 3,
      engine: used,
    });
  });

  it('answers an encrypted PDF with a named page error', async () => {
    const { body } = await post('/v1/scrape', { url: `${site.origin}/pdf/encrypted.pdf` }).expect(200);
    expect(body.error).toEqual({
      code: 'UNSUPPORTED_CONTENT',
      message: 'the PDF is encrypted and needs a password to open',
    });
    expect(body.markdown).toBeUndefined();
  });

  it('reports a target 404 as a 200 with an HTTP_4XX error and the status code', async () => {
    const res = await post('/v1/scrape', { url: `${site.origin}/status/404` }).expect(200);
    expect(res.body.status_code).toBe(404);
    expect(res.body.error.code).toBe('HTTP_4XX');
  });

  it('queues an async scrape and serves the result by polling', async () => {
    const res = await post('/v1/scrape/async', {
      url: `${site.origin}/static/article/3`,
      format: 'markdown',
    }).expect(202);
    expect(res.body).toEqual({ status: 'queued', job_id: expect.stringMatching(/^job_[0-9a-z]{26}$/) });
    const job = await waitForJob(api, account.liveKey, res.body.job_id);
    expect(job).toMatchObject({
      job_id: res.body.job_id,
      type: 'scrape',
      status: 'completed',
      total: 1,
      completed: 1,
      failed: 0,
    });
    expect(job.result.markdown).toMatch(/^# /);
    expect(new Date(job.expires_at).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    // Another account, or the other environment of the same account, cannot see it.
    const other = await createAccount(api);
    await api
      .http()
      .get(`/v1/jobs/${res.body.job_id}`)
      .set('Authorization', `Bearer ${other.liveKey}`)
      .expect(404);
    await api
      .http()
      .get(`/v1/jobs/${res.body.job_id}`)
      .set('Authorization', `Bearer ${account.testKey}`)
      .expect(404);
  });

  it('marks an async scrape of a failing page as failed, with the page error as result', async () => {
    const res = await post('/v1/scrape/async', { url: `${site.origin}/status/500` }).expect(202);
    const job = await waitForJob(api, account.liveKey, res.body.job_id);
    expect(job.status).toBe('failed');
    expect(job.result).toMatchObject({ status_code: 500, error: { code: 'HTTP_5XX' } });
  });

  it('replays an Idempotency-Key with the first job and refuses it with another body', async () => {
    const key = `idem-${Date.now()}`;
    const body = { url: `${site.origin}/static/article/4` };
    const first = await post('/v1/scrape/async', body).set('Idempotency-Key', key).expect(202);
    const again = await post('/v1/scrape/async', body).set('Idempotency-Key', key).expect(202);
    expect(again.body.job_id).toBe(first.body.job_id);
    const other = await post('/v1/scrape/async', { url: `${site.origin}/static/article/5` })
      .set('Idempotency-Key', key)
      .expect(409);
    expect(other.body.code).toBe('conflict');
    const list = await api
      .http()
      .get('/v1/jobs?type=scrape')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .expect(200);
    expect(list.body.data.filter((j: { job_id: string }) => j.job_id === first.body.job_id)).toHaveLength(1);
  });

  it.each([
    [{}, 'url'],
    [{ url: 'ftp://127.0.0.1/file' }, 'url'],
    [{ url: 'javascript:alert(1)' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'http://user:pw@127.0.0.1/' }, 'url'],
    [{ url: 'http://127.0.0.2/' }, 'url'],
    [{ url: 'http://[::1]/' }, 'url'],
    [{ url: 'http://[::ffff:127.0.0.2]/' }, 'url'],
    [{ url: 'http://0x7f000002/' }, 'url'],
    [{ url: 'http://2130706434/' }, 'url'],
    [{ url: 'http://foo.localhost/' }, 'url'],
    [{ url: 'http://127.0.0.1/', format: 'pdf' }, 'format'],
    [{ url: 'http://127.0.0.1/', formats: [] }, 'formats'],
    [{ url: 'http://127.0.0.1/', timeout: 'soon' }, 'timeout'],
    [{ url: 'http://127.0.0.1/', timeout: 500000 }, 'timeout'],
    [{ url: 'http://127.0.0.1/', engine: 'lynx' }, 'engine'],
    [{ url: 'http://127.0.0.1/', wait_for: -5 }, 'wait_for'],
    [{ url: 'http://127.0.0.1/', headers: { Host: 'evil' } }, 'headers'],
    [{ url: 'http://127.0.0.1/', headers: ['x'] }, 'headers'],
    [{ url: 'http://127.0.0.1/', mobile: 'yes' }, 'mobile'],
    [{ url: 'http://127.0.0.1/', colour: 'red' }, 'colour'],
    [{ url: 'http://127.0.0.1/', webhook_url: 'http://127.0.0.1/hook' }, 'webhook_url'],
    [{ url: 'http://127.0.0.1/', webhook_url: 'https://127.0.0.2/hook' }, 'webhook_url'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const res = await post('/v1/scrape/async', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('cancels a queued job and never renders it', async () => {
    await worker.close();
    try {
      const res = await post('/v1/scrape/async', { url: `${site.origin}/static/article/6` }).expect(202);
      const cancelled = await api
        .http()
        .delete(`/v1/jobs/${res.body.job_id}`)
        .set('Authorization', `Bearer ${account.liveKey}`)
        .expect(200);
      expect(cancelled.body.status).toBe('cancelled');
      site.resetHits();
      worker = await startWorker();
      await new Promise((r) => setTimeout(r, 1500));
      expect(site.hits('/static/article/6')).toBe(0);
      const job = await waitForJob(api, account.liveKey, res.body.job_id);
      expect(job).toMatchObject({ status: 'cancelled', completed: 0, failed: 0 });
    } finally {
      worker ??= await startWorker();
    }
  });
});
