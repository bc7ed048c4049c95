import Redis from 'ioredis';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { startForwardProxy, type ForwardProxy } from '../../../test/fixtures/forward-proxy';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { waitForJob } from '../../../test/support/jobs';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { proxyIdentity } from '../../worker/src/crawl/robots-rules.service';

// A crawl's robots.txt and sitemaps, and a map's fetches, go out the way the job's pages do: through
// its `proxy`. robots.txt is cached per origin and per way out, so a copy fetched directly (or
// through another proxy) is never used for a job through this one; keys and logs name the proxy by
// a hash, never by its credentials.
const SECRET = 'pw-site-files-5d2a';
const USER = 'robots-user';

describe('robots.txt, sitemaps and maps through the job proxy', () => {
  let site: FixtureSite;
  let crawlProxy: ForwardProxy;
  let mapProxy: ForwardProxy;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;
  const workerLogs: string[] = [];
  const post = (path: string, body: object) =>
    api.http().post(path).set('Authorization', `Bearer ${account.liveKey}`).send(body);
  const own = (proxy: ForwardProxy) => ({ url: proxy.url, username: USER, password: SECRET });
  /** The site's requests to `path` since `from`, and whether each came by way of the proxy. */
  const arrivals = (path: string, from: number, proxy?: ForwardProxy) =>
    site
      .requests()
      .slice(from)
      .filter((r) => r.path === path)
      .map((r) => (proxy ?? crawlProxy).carried.some((c) => c.via === r.remotePort));

  async function crawl(proxy: object | string, status = 'completed'): Promise<void> {
    const accepted = await post('/v1/crawl', {
      url: `${site.origin}/crawl/`,
      limit: 3,
      render: 'http',
      proxy,
    }).expect(202);
    const job = await waitForJob(api, account.liveKey, accepted.body.job_id as string);
    expect(job.status).toBe(status);
  }

  beforeAll(async () => {
    site = await startFixtureSite({ crawlDelaySeconds: null });
    crawlProxy = await startForwardProxy({ username: USER, password: SECRET });
    mapProxy = await startForwardProxy({ username: USER, password: SECRET });
    api = await startApi({ PROXY_URLS: '' });
    worker = await startWorker({ PROXY_URLS: '', LOG_LEVEL: 'debug' }, { logs: workerLogs });
    account = await createAccount(api, 'pro');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await Promise.all([site?.close(), crawlProxy?.close(), mapProxy?.close()]);
  });

  it('fetches a crawl’s robots.txt and sitemaps through its proxy, never reusing a direct copy', async () => {
    const start = site.requests().length;
    await crawl('none');
    expect(arrivals('/robots.txt', start)).toEqual([false]);
    expect(arrivals('/sitemap.xml', start)).toEqual([false]);

    // Cached for an hour after the direct crawl, yet fetched again through the proxy.
    const proxied = site.requests().length;
    await crawl(own(crawlProxy));
    expect(arrivals('/robots.txt', proxied)).toEqual([true]);
    expect(arrivals('/sitemap.xml', proxied)).toEqual([true]);
    expect(arrivals('/sitemaps/crawl-main.xml', proxied)).toEqual([true]);
    expect(crawlProxy.carried.every((c) => c.accepted && c.user === USER)).toBe(true);

    // A second crawl through the same proxy uses its cached copy.
    const again = site.requests().length;
    await crawl(own(crawlProxy));
    expect(arrivals('/robots.txt', again)).toEqual([]);
  });

  it('maps through the proxy: start page, robots.txt and sitemaps', async () => {
    const start = site.requests().length;
    const res = await post('/v1/map', { url: `${site.origin}/crawl/`, proxy: own(mapProxy) }).expect(200);
    expect(res.body.links).toContain(`${site.origin}/crawl/sitemap-only`);
    // Another proxy than the crawls': its own robots.txt, not their cached copy.
    for (const path of ['/crawl/', '/robots.txt', '/sitemap.xml', '/sitemaps/crawl-extra.xml']) {
      expect([path, arrivals(path, start, mapProxy)]).toEqual([path, [true]]);
    }
    expect(mapProxy.carried.every((c) => c.accepted && c.user === USER)).toBe(true);
  });

  it('refuses a map proxy that can never be used, as a scrape’s', async () => {
    const res = await post('/v1/map', { url: `${site.origin}/`, proxy: 'pool' }).expect(400);
    expect(res.body.errors).toEqual([{ field: 'proxy', message: expect.stringContaining('PROXY_URLS') }]);
    const bad = await post('/v1/map', { url: `${site.origin}/`, proxy: { url: 'http://127.0.0.2:3128' } });
    expect(bad.status).toBe(400);
  });

  it('keeps no robots.txt for a proxy that failed: the next job through it reads the file', async () => {
    const flaky = await startForwardProxy({ username: USER, password: SECRET });
    const redis = new Redis(api.env.REDIS_URL);
    try {
      const key = `${api.env.REDIS_PREFIX}:robots:${proxyIdentity({ url: flaky.url })}:${site.origin}`;
      await crawl({ ...own(flaky), password: 'not-it' }, 'failed');
      expect(await redis.exists(key)).toBe(0);
      const start = site.requests().length;
      await crawl(own(flaky));
      expect(arrivals('/robots.txt', start, flaky)).toEqual([true]);
      expect(await redis.exists(key)).toBe(1);
    } finally {
      redis.disconnect();
      await flaky.close();
    }
  });

  it('keeps the credentials out of Redis keys and values, and out of the logs', async () => {
    const redis = new Redis(api.env.REDIS_URL);
    try {
      const keys = await redis.keys(`${api.env.REDIS_PREFIX}:robots:*`);
      const origin = site.origin;
      expect(keys).toEqual(
        expect.arrayContaining([
          `${api.env.REDIS_PREFIX}:robots:direct:${origin}`,
          expect.stringMatching(new RegExp(`:robots:[0-9a-f]{16}:${origin.replace(/\./g, '\\.')}$`)),
        ]),
      );
      const values = await Promise.all(keys.map((k) => redis.get(k)));
      // The map's job, kept a minute after it ended, holds its proxy sealed.
      const jobs = await redis.keys(`${api.env.REDIS_PREFIX}:bull:render:*`);
      const held = await Promise.all(
        jobs.map((k) => redis.type(k).then((t) => (t === 'hash' ? redis.hgetall(k) : {}))),
      );
      expect(JSON.stringify(held)).toContain('sealed_proxy');
      for (const text of [...keys, ...values, JSON.stringify(held), ...workerLogs, ...api.logs]) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(USER);
      }
    } finally {
      redis.disconnect();
    }
  });
});
