import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { makeTestCertificate, startHttpsReceiver, type HttpsReceiver } from '../../../test/fixtures/https';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { startForwardProxy, type ForwardProxy } from '../../../test/fixtures/forward-proxy';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { waitForJob } from '../../../test/support/jobs';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';

// Upstream proxies through the API: the operator's pool (PROXY_URLS) by default, round robin per
// page and one per session; a caller's own, its credentials sealed at rest and shown nowhere;
// `none`; and the 400s for what can never be used. An https:// proxy is trusted as webhook
// receivers are: its certificate chains to NODE_EXTRA_CA_CERTS (the loopback test certificate).
const SECRET = 'pw-7c1e5b';
const certificate = makeTestCertificate();

describe('upstream proxies', () => {
  let site: FixtureSite;
  let pool: ForwardProxy[];
  let own: ForwardProxy;
  let secure: ForwardProxy;
  let untrusted: ForwardProxy;
  let secureSite: HttpsReceiver;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;
  const post = (path: string, body: object, harness = api) =>
    harness.http().post(path).set('Authorization', `Bearer ${account.liveKey}`).send(body);
  const carried = (proxy: ForwardProxy) => proxy.carried.filter((c) => c.accepted).length;

  beforeAll(async () => {
    site = await startFixtureSite();
    pool = [await startForwardProxy(), await startForwardProxy({ username: 'op', password: 'op-pass' })];
    own = await startForwardProxy({ username: 'me', password: SECRET });
    secure = await startForwardProxy({ username: 'me', password: SECRET }, { tls: certificate });
    const stranger = makeTestCertificate({ dir: mkdtempSync(path.join(tmpdir(), 'untrusted-proxy-')) });
    untrusted = await startForwardProxy({ username: 'me', password: SECRET }, { tls: stranger });
    secureSite = await startHttpsReceiver({
      certificate,
      behaviour: {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<html><head><title>Secure</title></head><body><p>secureTargetText</p></body></html>',
      },
    });
    const PROXY_URLS = `${pool[0].url},http://op:op-pass@${new URL(pool[1].url).host}`;
    api = await startApi({ PROXY_URLS });
    worker = await startWorker({ PROXY_URLS, NODE_EXTRA_CA_CERTS: certificate.caPath });
    account = await createAccount(api, 'pro');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await Promise.all(
      [site, own, secure, untrusted, secureSite, ...(pool ?? [])].map((closable) => closable?.close()),
    );
  });

  it('sends pages through the pool by default, round robin, and not with proxy: none', async () => {
    const before = pool.map(carried);
    for (let i = 0; i < 4; i++) {
      const res = await post('/v1/scrape', { url: `${site.origin}/`, render: 'http' }).expect(200);
      expect(res.body.error).toBeUndefined();
    }
    expect(pool.map((p, i) => carried(p) - before[i])).toEqual([2, 2]);
    const direct = await post('/v1/scrape', { url: `${site.origin}/`, render: 'http', proxy: 'none' }).expect(
      200,
    );
    expect(direct.body.error).toBeUndefined();
    expect(pool.map((p, i) => carried(p) - before[i])).toEqual([2, 2]);
  });

  it('keeps a session on one proxy of the pool', async () => {
    const before = pool.map(carried);
    for (let i = 0; i < 3; i++) {
      await post('/v1/scrape', { url: `${site.origin}/`, render: 'http', session_id: 'sticky' }).expect(200);
    }
    expect(pool.map((p, i) => carried(p) - before[i]).sort()).toEqual([0, 3]);
  });

  it("uses the caller's own proxy through a browser, its credentials sealed and shown nowhere", async () => {
    const accepted = await post('/v1/scrape/async', {
      url: `${site.origin}/`,
      render: 'browser',
      engine: 'puppeteer',
      proxy: { url: own.url, username: 'me', password: SECRET },
    }).expect(202);
    const jobId = accepted.body.job_id as string;
    const db = api.app.get(DataSource);
    const [row] = await db.query('SELECT CAST(options AS CHAR) AS options FROM jobs WHERE id = ?', [jobId]);
    expect(row.options).not.toContain(SECRET);
    expect(row.options).not.toContain(own.url);
    expect(JSON.parse(row.options)).toMatchObject({ sealed_proxy: expect.stringMatching(/^v1\./) });

    const job = await waitForJob(api, account.liveKey, jobId);
    expect(job.result.error).toBeUndefined();
    expect(own.carried.some((c) => c.accepted && c.user === 'me')).toBe(true);
    expect(JSON.stringify(job)).not.toContain(SECRET);
    expect(api.logs.join('')).not.toContain(SECRET);
  });

  it('fails the page with PROXY when the proxy refuses the credentials', async () => {
    const res = await post('/v1/scrape', {
      url: `${site.origin}/`,
      render: 'http',
      proxy: { url: own.url, username: 'me', password: 'not-it' },
    }).expect(200);
    expect(res.body.error.code).toBe('PROXY');
  });

  it("sends a crawl page's robots.txt through the pool proxy its page takes", async () => {
    const from = site.requests().length;
    const accepted = await post('/v1/crawl', {
      url: `${site.origin}/crawl/`,
      limit: 1,
      render: 'http',
      ignore_sitemap: true,
    }).expect(202);
    const job = await waitForJob(api, account.liveKey, accepted.body.job_id as string);
    expect(job.status).toBe('completed');
    const throughWhich = (path: string) =>
      site
        .requests()
        .slice(from)
        .filter((r) => r.path === path)
        .map((r) => pool.findIndex((p) => p.carried.some((c) => c.via === r.remotePort)));
    const [robots] = throughWhich('/robots.txt');
    expect(robots).toBeGreaterThanOrEqual(0);
    expect(throughWhich('/crawl/')).toEqual([robots]);
  });

  describe.each([
    ['http', { render: 'http' }],
    ['browser', { render: 'browser', engine: 'puppeteer' }],
  ])('through an https:// proxy, the %s engine', (_, engine) => {
    const scrape = (url: string, proxy: object) =>
      post('/v1/scrape', { url, ...engine, proxy, timeout: 20_000 }).expect(200);
    const mine = (proxy: ForwardProxy) => ({ url: proxy.url, username: 'me', password: SECRET });

    it('carries http and https targets, with our credentials', async () => {
      const before = secure.carried.length;
      const served = secureSite.requests.length;
      const plain = await scrape(`${site.origin}/`, mine(secure));
      expect(plain.body.error).toBeUndefined();
      const tls = await scrape(`${secureSite.origin}/page`, mine(secure));
      const carried = secure.carried.slice(before);
      expect(carried.map((c) => c.target)).toEqual(
        expect.arrayContaining([new URL(site.origin).host, new URL(secureSite.origin).host]),
      );
      expect(carried.every((c) => c.accepted && c.user === 'me')).toBe(true);
      if (engine.render === 'http') {
        expect(tls.body.error).toBeUndefined();
        expect(tls.body.markdown).toContain('secureTargetText');
        expect(secureSite.requests.length).toBe(served + 1);
      } else {
        // The tunnel reached the target; Chromium trusts no test certificate (it reads neither
        // NODE_EXTRA_CA_CERTS nor a ca option), so it refuses the target's own: TLS, not PROXY.
        expect(tls.body.error?.code).toBe('TLS');
      }
    });

    it('fails with PROXY (407) without credentials', async () => {
      const res = await scrape(`${site.origin}/`, { url: secure.url });
      expect(res.body.error).toEqual({ code: 'PROXY', message: expect.stringContaining('407') });
    });

    it('fails with PROXY, naming the certificate, when the proxy is not trusted', async () => {
      const res = await scrape(`${site.origin}/`, mine(untrusted));
      expect(res.body.error).toEqual({
        code: 'PROXY',
        message: expect.stringContaining("the proxy's TLS certificate was refused"),
      });
      expect(untrusted.carried).toEqual([]);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
    });
  });

  it.each([
    ['proxy', 'socks4'],
    ['proxy', { url: 'http://127.0.0.1:3128', extra: 'x' }],
    ['proxy', { url: 'http://127.0.0.1:3128', password: 1 }],
    ['proxy', { username: 'u' }],
    ['proxy.url', { url: 'ftp://127.0.0.1:21' }],
    ['proxy.url', { url: 'http://127.0.0.1:3128/path' }],
    ['proxy.url', { url: 'http://127.0.0.2:3128' }],
    ['proxy.url', { url: 'http://[::1]:3128' }],
    ['proxy.url', { url: 'http://0x7f000002:3128' }],
    ['proxy.url', { url: 'socks5://proxy.localhost:1080' }],
  ])('refuses a bad proxy with a 400 on %s: %j', async (field, proxy) => {
    const res = await post('/v1/scrape', { url: `${site.origin}/`, proxy }).expect(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('refuses proxy: pool where no PROXY_URLS are set', async () => {
    const bare = await startApi({ PROXY_URLS: '' });
    try {
      const res = await post('/v1/scrape', { url: `${site.origin}/`, proxy: 'pool' }, bare).expect(400);
      expect(res.body.errors).toEqual([{ field: 'proxy', message: expect.stringContaining('PROXY_URLS') }]);
    } finally {
      await bare.close();
    }
  });

  // Last: it replaces the worker with one that has no PROXY_URLS.
  it('fails a page, a crawl and a map that asked for the pool on a worker without PROXY_URLS, never going direct', async () => {
    await worker.close();
    worker = await startWorker({ PROXY_URLS: '' });
    const before = pool.map(carried);
    const served = site.requests().length;
    const res = await post('/v1/scrape', { url: `${site.origin}/`, render: 'http', proxy: 'pool' }).expect(
      200,
    );
    expect(res.body.error).toEqual({ code: 'PROXY', message: expect.stringContaining('no PROXY_URLS') });
    // Nor a crawl's robots.txt and sitemaps, nor a map's fetches.
    const crawl = await post('/v1/crawl', { url: `${site.origin}/crawl/`, render: 'http', proxy: 'pool' });
    const job = await waitForJob(api, account.liveKey, crawl.body.job_id as string);
    expect(job.status).toBe('failed');
    await post('/v1/map', { url: `${site.origin}/crawl/`, proxy: 'pool' }).expect(503);
    expect(pool.map(carried)).toEqual(before);
    expect(site.requests().length).toBe(served);
  });
});
