import Firecrawl, { FirecrawlAppV1, SdkError } from '@mendable/firecrawl-js';
import { Webhook } from 'standardwebhooks';
import { makeTestCertificate, startHttpsReceiver } from '../../../test/fixtures/https';
import { startTwoOrigins } from '../../../test/fixtures/two-origins';
import { startFixtureSite, FixtureSite } from '../../../test/fixtures/site/fixture-site';
import {
  ApiHarness,
  TestAccount,
  createAccount,
  createAccountOnPlan,
  startApi,
} from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';

/**
 * The unmodified Firecrawl JS SDK (both API versions) against a real API and worker, with only
 * `apiUrl` and the key changed (docs/firecrawl.md). Crawls are tiny and pages are plain HTML, so
 * the worker's plain HTTP fetch serves them.
 */
describe('Firecrawl SDK against /firecrawl', () => {
  const certificate = makeTestCertificate();
  let site: FixtureSite;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;
  let apiUrl: string;
  let v2: Firecrawl;
  let v1: FirecrawlAppV1;
  const at = (path: string) => `${site.origin}${path}`;
  const article = (n: number | string) => at(`/static/article/${n}`);
  const pathOf = (url: string | undefined) => (url ?? '').slice(site.origin.length);

  beforeAll(async () => {
    site = await startFixtureSite({ crawlDelaySeconds: null });
    api = await startApi();
    const server = api.app.getHttpServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    apiUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/firecrawl`;
    worker = await startWorker({ NODE_EXTRA_CA_CERTS: certificate.caPath });
    account = await createAccount(api, 'pro');
    v2 = new Firecrawl({ apiKey: account.liveKey, apiUrl });
    v1 = new FirecrawlAppV1({ apiKey: account.liveKey, apiUrl });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await site?.close();
  });

  /** What a rejected SDK call carried: their status and message. */
  async function failure(call: Promise<unknown>): Promise<{ status?: number; message: string }> {
    const err = await call.then(
      () => {
        throw new Error('the call succeeded');
      },
      (e: unknown) => e as { status?: number; statusCode?: number; message: string },
    );
    return { status: err.status ?? err.statusCode, message: err.message };
  }

  describe('v2 (Firecrawl)', () => {
    it('scrapes a page into their document', async () => {
      const doc = await v2.scrape(article('feature'), { formats: ['markdown', 'html', 'links'] });
      expect(doc.markdown).toContain('Field Notes on Urban Beekeeping');
      expect(doc.html).toMatch(/<h1|<p/);
      expect(doc.links).toContain(at('/crawl/'));
      expect(doc.metadata).toMatchObject({
        title: expect.stringContaining('Urban Beekeeping'),
        sourceURL: article('feature'),
        url: article('feature'),
        statusCode: 200,
      });
    });

    it("sends location.languages as Accept-Language, beside the caller's headers", async () => {
      const sites = await startTwoOrigins();
      try {
        await v2.scrape(`${sites.target}/links`, {
          location: { languages: ['de-DE', 'en'] },
          headers: { 'X-Trace': 'fc-1' },
        });
        const [seen] = sites.seen('target').filter((r) => r.path === '/links');
        expect(seen.headers).toMatchObject({ 'accept-language': 'de-DE, en', 'x-trace': 'fc-1' });
      } finally {
        await sites.close();
      }
    });

    it('maps a site into {url} links', async () => {
      const { links } = await v2.map(at('/crawl/'), { sitemap: 'skip' });
      expect(links).toEqual(expect.arrayContaining([{ url: at('/crawl/') }, { url: at('/crawl/about') }]));
    });

    it('crawls to the end with its own poller: only fetched pages in data, the rest in errors', async () => {
      const job = await v2.crawl(at('/crawl/'), {
        limit: 20,
        maxDiscoveryDepth: 1,
        sitemap: 'skip',
        pollInterval: 1,
      });
      expect(job.status).toBe('completed');
      const paths = job.data.map((d) => pathOf(d.metadata?.sourceURL)).sort();
      // The depth-1 pages fetched, a 404 among them; the offsite redirect to a refused address
      // failed unfetched, and robots.txt kept /crawl/private out: neither is a document. The
      // hash-routed section is its routes (crawl.e2e-spec.ts).
      expect(paths).toEqual(
        ['/crawl/', '/crawl/about', '/crawl/blog/', '/crawl/deep/1', '/crawl/hash/#/one', '/crawl/missing']
          .concat(['/crawl/products?a=1&b=2', '/crawl/spa/'])
          .sort(),
      );
      expect(
        job.data.find((d) => pathOf(d.metadata?.sourceURL) === '/crawl/missing')?.metadata?.statusCode,
      ).toBe(404);
      const { errors, robotsBlocked } = await v2.getCrawlErrors(job.id);
      expect(errors.map((e) => pathOf(e.url))).toEqual(['/crawl/offsite']);
      expect(robotsBlocked.map(pathOf)).toEqual(['/crawl/private/secret']);
    });

    it('pages a finished crawl through absolute `next` URLs under /firecrawl', async () => {
      const started = await v2.startCrawl(at('/crawl/'), { limit: 3, maxDiscoveryDepth: 1, sitemap: 'skip' });
      expect(started.url).toBe(`${apiUrl}/v2/crawl/${started.id}`);
      let status = await v2.getCrawlStatus(started.id);
      for (let i = 0; status.status !== 'completed' && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 200));
        status = await v2.getCrawlStatus(started.id);
      }
      const headers = { Authorization: `Bearer ${account.liveKey}` };
      const urls: string[] = [];
      let next: string | undefined = `${apiUrl}/v2/crawl/${started.id}?limit=1`;
      while (next) {
        expect(next.startsWith(`${apiUrl}/v2/crawl/${started.id}?`)).toBe(true);
        const body = (await (await fetch(next, { headers })).json()) as {
          data: { metadata: { sourceURL: string } }[];
          next?: string;
        };
        urls.push(...body.data.map((d) => d.metadata.sourceURL));
        next = body.next;
      }
      expect(urls).toHaveLength(3);
      expect(urls.sort()).toEqual(status.data.map((d) => d.metadata!.sourceURL!).sort());
    });

    it('its poller follows `next` past the first page of results (100 pages)', async () => {
      const job = await v2.crawl(at('/big/1'), {
        limit: 101,
        maxDiscoveryDepth: 10,
        sitemap: 'skip',
        pollInterval: 1,
      });
      expect(job.status).toBe('completed');
      expect(job.next).toBeNull();
      expect(new Set(job.data.map((d) => d.metadata?.sourceURL)).size).toBe(101);
    });

    it('batch scrapes, and cancels a batch', async () => {
      const job = await v2.batchScrape([article(1), article(2)], {
        options: { formats: ['markdown'] },
        pollInterval: 1,
      });
      expect(job.status).toBe('completed');
      expect(job.data.map((d) => d.metadata?.sourceURL).sort()).toEqual([article(1), article(2)]);
      expect(job.data.every((d) => (d.markdown ?? '').length > 0)).toBe(true);

      const many = Array.from({ length: 300 }, (_, i) => article(i + 1));
      const started = await v2.startBatchScrape(many);
      expect(await v2.cancelBatchScrape(started.id)).toBe(true);
      const after = await v2.getBatchScrapeStatus(started.id, { autoPaginate: false });
      expect(after.status).toBe('cancelled');
      expect(after.data.length).toBeLessThan(300);
    });

    it('delivers their webhook as ours: one signed delivery when the job ends', async () => {
      const receiver = await startHttpsReceiver({ certificate });
      try {
        const started = await v2.startBatchScrape([article(5)], {
          webhook: { url: receiver.url, events: ['completed', 'failed'] },
        });
        const [req] = await receiver.waitForRequests(1, 60_000);
        const secret = (
          await api
            .http()
            .get('/v1/webhooks/secret')
            .set('Authorization', `Bearer ${account.liveKey}`)
            .expect(200)
        ).body.secret;
        const body = new Webhook(secret).verify(
          req.rawBody.toString(),
          req.headers as Record<string, string>,
        );
        expect(body).toMatchObject({
          job_id: started.id,
          status: 'completed',
          total: 1,
          result: { data: [{ url: article(5), status_code: 200 }], next: null },
        });
      } finally {
        await receiver.close();
      }
    });

    it('cancels a crawl', async () => {
      const started = await v2.startCrawl(at('/big/1'), { limit: 1000, maxDiscoveryDepth: 10 });
      expect(await v2.cancelCrawl(started.id)).toBe(true);
      expect((await v2.getCrawlStatus(started.id, { autoPaginate: false })).status).toBe('cancelled');
    });

    it('answers their error shape: a bad URL, a refused address, what it cannot honour, a bad key', async () => {
      expect(await failure(v2.scrape('not a url'))).toMatchObject({
        status: 400,
        message: expect.stringMatching(/^url: /),
      });
      expect(await failure(v2.scrape('http://127.0.0.2/'))).toEqual({
        status: 400,
        message: 'url: points at an address this service may not reach',
      });
      expect(
        await failure(v2.scrape(article(1), { formats: [{ type: 'json', prompt: 'the title' }] })),
      ).toEqual({
        status: 400,
        message: 'formats[0]: json needs an LLM, which this server does not run',
      });
      expect(await failure(v2.scrape(article(1), { proxy: 'stealth' }))).toMatchObject({
        status: 400,
        message: expect.stringMatching(/^proxy: only basic and auto/),
      });
      expect(await failure(v2.scrape(article(1), { location: { country: 'DE' } }))).toMatchObject({
        status: 400,
        message: expect.stringMatching(/^location\.country: country geotargeting is not supported/),
      });
      expect(await failure(v2.search('bees'))).toMatchObject({
        status: 400,
        message: expect.stringMatching(/^search is not supported/),
      });
      expect(await failure(v2.scrape(article(1), { timeout: 500 }))).toEqual({
        status: 400,
        message: 'timeout: timeout must not be less than 1000',
      });
      expect(await failure(v2.getCrawlStatus('job_00000000000000000000000000'))).toMatchObject({
        status: 404,
      });
      const stranger = new Firecrawl({ apiKey: 'osk_live_not_a_key', apiUrl });
      expect(await failure(stranger.scrape(article(1)))).toEqual({
        status: 401,
        message: 'Missing or invalid API key',
      });
      const err = await v2.map('http://127.0.0.2/').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SdkError);
    });
  });

  it("applies our plan's quota and rate limit, answered in their shape", async () => {
    const own = await createAccountOnPlan(api, { ratePerMinute: 2, monthlyQuota: 1, maxConcurrentPages: 1 });
    const client = new Firecrawl({ apiKey: own.liveKey, apiUrl });
    await client.map(at('/crawl/'), { sitemap: 'skip' });
    const quota = await client.map(at('/crawl/'), { sitemap: 'skip' }).catch((e: SdkError) => e);
    expect(quota).toMatchObject({ status: 402, code: 'quota_exceeded', details: { limit: 1, used: 1 } });
    expect(await failure(client.map(at('/crawl/')))).toEqual({ status: 429, message: 'Rate limit exceeded' });
  });

  describe('v1 (FirecrawlAppV1)', () => {
    it('scrapes and maps', async () => {
      const doc = await v1.scrapeUrl(article('feature'), { formats: ['markdown', 'rawHtml'] });
      expect(doc).toMatchObject({
        success: true,
        metadata: { sourceURL: article('feature'), statusCode: 200 },
      });
      if (!doc.success) throw new Error('scrape failed');
      expect(doc.markdown).toContain('Field Notes on Urban Beekeeping');
      expect(doc.rawHtml).toContain('<html');
      const map = await v1.mapUrl(at('/crawl/'), { ignoreSitemap: true });
      expect(map).toMatchObject({ success: true });
      expect((map as { links: string[] }).links).toEqual(
        expect.arrayContaining([at('/crawl/'), at('/crawl/about')]),
      );
    });

    it('crawls to the end with its own poller', async () => {
      const job = await v1.crawlUrl(at('/crawl/'), { limit: 3, maxDepth: 1, ignoreSitemap: true }, 1);
      if (!job.success) throw new Error(`crawl failed: ${job.error}`);
      expect(job.status).toBe('completed');
      expect(job.data).toHaveLength(3);
      expect(job.data.every((d) => d.metadata?.sourceURL?.startsWith(at('/crawl/')))).toBe(true);
    });

    it('follows `next` with a page size of one', async () => {
      const { id } = (await v1.asyncCrawlUrl(at('/crawl/'), {
        limit: 3,
        maxDepth: 1,
        ignoreSitemap: true,
      })) as {
        id: string;
      };
      let status = await v1.checkCrawlStatus(id);
      for (let i = 0; status.success && status.status !== 'completed' && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 200));
        status = await v1.checkCrawlStatus(id);
      }
      const all = await v1.checkCrawlStatus(id, true, `${apiUrl}/v1/crawl/${id}?limit=1`);
      if (!all.success) throw new Error('status failed');
      expect(all.data).toHaveLength(3);
      const errors = await v1.checkCrawlErrors(id);
      // Robots.txt kept out a link of the start page; no page failed.
      expect(errors).toEqual({ errors: [], robotsBlocked: [at('/crawl/private/secret')] });
    });

    it('batch scrapes (its client polls the batch at /v1/crawl), and cancels', async () => {
      const job = await v1.batchScrapeUrls([article(3), article(4)], { formats: ['markdown'] }, 1);
      if (!job.success) throw new Error(`batch failed: ${job.error}`);
      expect(job.data.map((d) => d.metadata?.sourceURL).sort()).toEqual([article(3), article(4)]);
      const started = (await v1.asyncBatchScrapeUrls(
        Array.from({ length: 300 }, (_, i) => article(i + 1)),
        {},
      )) as {
        id: string;
      };
      expect(await v1.cancelCrawl(started.id)).toEqual({ success: true, status: 'cancelled' });
      expect(await v1.checkBatchScrapeStatus(started.id)).toMatchObject({
        success: true,
        status: 'cancelled',
      });
    });

    it('throws their errors with the status: a refused address, an LLM format, a bad key', async () => {
      expect(await failure(v1.scrapeUrl('http://127.0.0.2/', {}))).toMatchObject({
        status: 400,
        message: expect.stringContaining('url: points at an address this service may not reach'),
      });
      expect(await failure(v1.scrapeUrl(article(1), { formats: ['extract'] }))).toMatchObject({
        status: 400,
        message: expect.stringContaining('formats[0]: extract needs an LLM'),
      });
      expect(await failure(v1.crawlUrl(at('/crawl/'), { webhook: 'http://127.0.0.1/hook' }))).toMatchObject({
        status: 400,
        message: expect.stringContaining('webhook'),
      });
      const stranger = new FirecrawlAppV1({ apiKey: 'osk_live_not_a_key', apiUrl });
      expect(await failure(stranger.scrapeUrl(article(1), {}))).toMatchObject({
        status: 401,
        message: expect.stringContaining('Status code: 401'),
      });
    });
  });
});
