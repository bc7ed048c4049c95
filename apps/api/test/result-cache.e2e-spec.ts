import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageFlusher } from '@app/auth';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { allResults, waitForJob } from '../../../test/support/jobs';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';

// Cached results (docs/api.md, Cached results) through the API and a worker: a fixture page that
// counts its fetches, and says which fetch it was, proves a hit was not rendered.
const CRAWL_LINKS = '<a href="/c/one">one</a> <a href="/c/two">two</a>';

describe('cached results (max_age)', () => {
  let site: Server;
  let origin: string;
  const fetches = new Map<string, number>();
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;

  beforeAll(async () => {
    site = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/robots.txt') return res.writeHead(404).end();
      const n = (fetches.get(path) ?? 0) + 1;
      fetches.set(path, n);
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html><head><title>Page ${path}</title></head><body><main><h1>Page ${path}</h1>` +
            `<p>This is fetch number ${n} of the page.</p>${path === '/c/start' ? CRAWL_LINKS : ''}</main></body></html>`,
        );
    }).listen(0, '127.0.0.1');
    await once(site, 'listening');
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    api = await startApi();
    worker = await startWorker();
    account = await createAccount(api, 'pro');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    site?.close();
  });

  const scrape = (key: string, path: string, extra: object = {}) =>
    api
      .http()
      .post('/v1/scrape')
      .set('Authorization', `Bearer ${key}`)
      .send({ url: origin + path, render: 'http', ...extra })
      .expect(200)
      .then((res) => res.body);
  const fetched = (path: string) => fetches.get(path) ?? 0;

  it('answers a page rendered within max_age from the cache, without a render, and counts it as a page', async () => {
    const first = await scrape(account.liveKey, '/hit');
    expect(first.metadata).toMatchObject({ cache_state: 'miss', cached_at: null });
    expect(first.markdown).toContain('fetch number 1');

    const hit = await scrape(account.liveKey, '/hit', { max_age: 60_000 });
    expect(fetched('/hit')).toBe(1);
    expect(hit.markdown).toBe(first.markdown);
    expect(hit.metadata).toMatchObject({ cache_state: 'hit', title: 'Page /hit' });
    expect(Date.parse(hit.metadata.cached_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(hit.timings.render_ms).toBe(0);

    // No max_age (0): rendered again, and the fresh page replaces the cached one.
    const again = await scrape(account.liveKey, '/hit');
    expect(again.metadata.cache_state).toBe('miss');
    expect(fetched('/hit')).toBe(2);
    expect((await scrape(account.liveKey, '/hit', { max_age: 60_000 })).markdown).toContain('fetch number 2');

    await worker.app.get(UsageFlusher).flush();
    const me = await api.http().get('/v1/me').set('Authorization', `Bearer ${account.liveKey}`).expect(200);
    expect(me.body.usage.requests_this_month).toBe(4);
  });

  it('is never shared across environments or accounts', async () => {
    await scrape(account.liveKey, '/iso');
    const other = await createAccount(api, 'pro');
    const sandbox = await scrape(account.testKey, '/iso', { max_age: 60_000 });
    const stranger = await scrape(other.liveKey, '/iso', { max_age: 60_000 });
    expect([sandbox.metadata.cache_state, stranger.metadata.cache_state]).toEqual(['miss', 'miss']);
    expect(fetched('/iso')).toBe(3);
    expect((await scrape(account.liveKey, '/iso', { max_age: 60_000 })).markdown).toContain('fetch number 1');
    expect(fetched('/iso')).toBe(3);
  });

  it('keys on the options that change content, and renders again once the page is older than max_age', async () => {
    await scrape(account.liveKey, '/opts');
    const html = await scrape(account.liveKey, '/opts', { max_age: 60_000, formats: ['html'] });
    const whole = await scrape(account.liveKey, '/opts', { max_age: 60_000, only_main_content: false });
    expect([html.metadata.cache_state, whole.metadata.cache_state]).toEqual(['miss', 'miss']);
    expect(fetched('/opts')).toBe(3);
    await sleep(100);
    const stale = await scrape(account.liveKey, '/opts', { max_age: 50 });
    expect(stale.metadata.cache_state).toBe('miss');
    expect(fetched('/opts')).toBe(4);
  });

  it('never serves or keeps a request with headers or a session', async () => {
    const headers = { 'X-Customer-Token': 'tok-cache' };
    await scrape(account.liveKey, '/private', { headers });
    expect(
      (await scrape(account.liveKey, '/private', { headers, max_age: 60_000 })).metadata.cache_state,
    ).toBe('miss');
    // Nothing the header requests rendered was kept.
    expect((await scrape(account.liveKey, '/private', { max_age: 60_000 })).metadata.cache_state).toBe(
      'miss',
    );
    const session = await scrape(account.liveKey, '/private', { session_id: 'cache-s1', max_age: 60_000 });
    expect(session.metadata.cache_state).toBe('miss');
    expect(fetched('/private')).toBe(4);
  });

  it("serves a batch's pages from the cache and fills it with the ones it renders", async () => {
    await scrape(account.liveKey, '/b1');
    const batch = async () => {
      const accepted = await api
        .http()
        .post('/v1/scrape/batch/async')
        .set('Authorization', `Bearer ${account.liveKey}`)
        .send({ urls: [`${origin}/b1`, `${origin}/b2`], render: 'http', max_age: 60_000 })
        .expect(202);
      const job = await waitForJob(api, account.liveKey, accepted.body.job_id);
      expect(job.status).toBe('completed');
      return (await allResults(api, account.liveKey, job.job_id)).map((p) => p.metadata.cache_state);
    };
    expect(await batch()).toEqual(['hit', 'miss']);
    expect([fetched('/b1'), fetched('/b2')]).toEqual([1, 1]);
    expect(await batch()).toEqual(['hit', 'hit']);
    expect([fetched('/b1'), fetched('/b2')]).toEqual([1, 1]);
  });

  it("serves a crawl's pages from the cache, links and all, and fills it with the ones it renders", async () => {
    const crawl = async () => {
      const accepted = await api
        .http()
        .post('/v1/crawl')
        .set('Authorization', `Bearer ${account.liveKey}`)
        .send({ url: `${origin}/c/start`, render: 'http', ignore_sitemap: true, max_age: 60_000 })
        .expect(202);
      const job = await waitForJob(api, account.liveKey, accepted.body.job_id);
      expect(job.status).toBe('completed');
      const pages = await allResults(api, account.liveKey, job.job_id);
      return pages.map((p) => `${new URL(p.url).pathname} ${p.metadata.cache_state}`).sort();
    };
    expect(await crawl()).toEqual(['/c/one miss', '/c/start miss', '/c/two miss']);
    expect(await crawl()).toEqual(['/c/one hit', '/c/start hit', '/c/two hit']);
    expect(['/c/start', '/c/one', '/c/two'].map(fetched)).toEqual([1, 1, 1]);
  });

  it('refuses a max_age that is not a whole number of milliseconds from 0 to 30 days', async () => {
    for (const max_age of [-1, 1.5, '60000', 30 * 24 * 3_600_000 + 1]) {
      const res = await api
        .http()
        .post('/v1/scrape')
        .set('Authorization', `Bearer ${account.liveKey}`)
        .send({ url: `${origin}/bad`, max_age })
        .expect(400);
      expect(JSON.stringify(res.body)).toContain('max_age');
    }
    expect(fetched('/bad')).toBe(0);
  });
});
