import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JobProducer } from '@app/queues';
import { CRAWL_REACHABLE, CRAWL_JS_ONLY } from '../../../test/fixtures/site/crawl-site';
import { startFixtureSite, FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { refusedOrigins } from '../../../test/fixtures/site/routing';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { allResults, waitForJob } from '../../../test/support/jobs';

/**
 * The fixture's reachable set with this crawler's normalisation: `/crawl/about/` folds into
 * `/crawl/about` (trailing slash), and the hash-routed section is its routes (`#/one` linked from
 * the start page, `#/two` from it), not one URL.
 */
function expectedPaths(maxDepth: number, { js = true } = {}): string[] {
  const depths: Record<string, number> = { ...CRAWL_REACHABLE };
  delete depths['/crawl/about/'];
  delete depths['/crawl/hash/'];
  depths['/crawl/hash/#/one'] = 1;
  depths['/crawl/hash/#/two'] = 2;
  if (js) for (const p of CRAWL_JS_ONLY) depths[p] = 2;
  return Object.keys(depths).filter((p) => depths[p] <= maxDepth);
}

describe('POST /v1/crawl on the fixture site', () => {
  let site: FixtureSite;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;
  const post = (body: object) =>
    api.http().post('/v1/crawl').set('Authorization', `Bearer ${account.liveKey}`).send(body);

  beforeAll(async () => {
    site = await startFixtureSite({ crawlDelaySeconds: null });
    api = await startApi();
    worker = await startWorker();
    account = await createAccount(api, 'pro');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await site?.close();
  });
  afterEach(() => expect(site.leakedRequests()).toEqual([]));

  /** Runs a crawl to its end: pages fetched (by path on the site), and URLs reported unfetched. */
  async function crawl(options: object) {
    site.resetHits();
    const res = await post({ url: `${site.origin}/crawl/`, ...options }).expect(202);
    expect(res.body).toEqual({ status: 'queued', job_id: expect.stringMatching(/^job_/) });
    const job = await waitForJob(api, account.liveKey, res.body.job_id, 120_000);
    const data = await allResults(api, account.liveKey, res.body.job_id);
    expect(data.map((p) => p.index)).toEqual([...data.map((p) => p.index)].sort((a, b) => a - b));
    const path = (url: string) => (url.startsWith(site.origin) ? url.slice(site.origin.length) : url);
    const unfetchedCodes = ['OUT_OF_SCOPE', 'BLOCKED_ROBOTS'];
    const fetched = data.filter((p) => !unfetchedCodes.includes(p.error?.code));
    const skipped = Object.fromEntries(
      data.filter((p) => unfetchedCodes.includes(p.error?.code)).map((p) => [path(p.url), p.error.code]),
    );
    return {
      job,
      data,
      fetched,
      paths: fetched.map((p) => path(p.url)),
      skipped,
      byPath: (p: string) => data.find((d) => path(d.url) === p),
    };
  }

  const sorted = (xs: string[]) => [...xs].sort();

  it('crawls the site: exact page set, JS links, hash routes, sitemap, robots and scope reported', async () => {
    const { job, data, paths, skipped, byPath } = await crawl({ formats: ['markdown'] });
    expect(sorted(paths)).toEqual(sorted([...expectedPaths(5), '/crawl/sitemap-only']));
    const refused = refusedOrigins(site.port);
    expect(skipped).toEqual({
      '/crawl/private/secret': 'BLOCKED_ROBOTS',
      '/crawl/private/sitemap-listed': 'BLOCKED_ROBOTS',
      // hex and decimal spellings parse to 127.0.0.2: one URL.
      [`${refused['ipv4-127.0.0.2']}/crawl/`]: 'OUT_OF_SCOPE',
      [`${refused['ipv6-loopback']}/crawl/`]: 'OUT_OF_SCOPE',
      [`http://[::ffff:7f00:2]:${site.port}/crawl/`]: 'OUT_OF_SCOPE',
      [`${refused['localhost-subdomain']}/crawl/`]: 'OUT_OF_SCOPE',
    });
    expect(job).toMatchObject({ type: 'crawl', status: 'completed', total: data.length });
    expect(job.completed + job.failed).toBe(data.length);
    // The start page, then its links in document order (the query sorted), first spelling kept.
    expect(data.slice(0, 3).map((p) => p.url)).toEqual([
      `${site.origin}/crawl/`,
      `${site.origin}/crawl/about`,
      `${site.origin}/crawl/products?a=1&b=2`,
    ]);
    expect(byPath('/crawl/missing')).toMatchObject({ status_code: 404, error: { code: 'HTTP_4XX' } });
    expect(byPath('/crawl/offsite')!.error).toBeDefined();
    expect(byPath('/crawl/spa/item-2')!.markdown).toMatch(/Client-rendered item 2/);
    expect(byPath('/crawl/about')!.links).toBeUndefined();
    // Each page was fetched once: the duplicate spellings never were.
    expect(site.hits('/crawl/about/')).toBe(0);
    expect(site.hits('/crawl/private/secret')).toBe(0);
    expect(site.hits('/crawl/deep/6')).toBe(0);
  }, 150_000);

  it('gives back the quota a crawl did not use', async () => {
    const db = api.app.get(DataSource);
    const other = await createAccount(api, 'pro');
    const month = new Date().toISOString().slice(0, 7);
    const reserved = async () =>
      Number(
        (
          await db.query(
            'SELECT reserved FROM quota_monthly WHERE account_id = ? AND environment = ? AND month LIKE ?',
            [other.id, 'production', `${month}%`],
          )
        )[0]?.reserved ?? 0,
      );
    const res = await api
      .http()
      .post('/v1/crawl')
      .set('Authorization', `Bearer ${other.liveKey}`)
      .send({ url: `${site.origin}/crawl/`, limit: 500, max_depth: 1, ignore_sitemap: true })
      .expect(202);
    expect(await reserved()).toBe(500);
    const job = await waitForJob(api, other.liveKey, res.body.job_id, 120_000);
    const data = await allResults(api, other.liveKey, res.body.job_id);
    const fetched = data.filter((p) => !['OUT_OF_SCOPE', 'BLOCKED_ROBOTS'].includes(p.error?.code)).length;
    expect(fetched).toBe(9);
    expect(job.status).toBe('completed');
    expect(await reserved()).toBe(fetched);
  }, 150_000);

  it('a cancelled crawl gives back its reservation beyond the pages it fetched', async () => {
    const db = api.app.get(DataSource);
    const other = await createAccount(api, 'pro');
    const reserved = async () =>
      Number(
        (await db.query('SELECT SUM(reserved) AS r FROM quota_monthly WHERE account_id = ?', [other.id]))[0]
          ?.r ?? 0,
      );
    const auth = { Authorization: `Bearer ${other.liveKey}` };
    const res = await api
      .http()
      .post('/v1/crawl')
      .set(auth)
      .send({ url: `${site.origin}/big/1`, limit: 800, max_depth: 10, ignore_sitemap: true })
      .expect(202);
    const id = res.body.job_id;
    for (let started = Date.now(); ;) {
      const job = await api.http().get(`/v1/jobs/${id}`).set(auth);
      if (job.body.completed >= 5) break;
      if (Date.now() - started > 30_000) throw new Error('crawl never got going');
      await new Promise((r) => setTimeout(r, 50));
    }
    await api.http().delete(`/v1/jobs/${id}`).set(auth).expect(200);
    await new Promise((r) => setTimeout(r, 2000));
    const data = await allResults(api, other.liveKey, id);
    const fetched = data.filter((p) => !['OUT_OF_SCOPE', 'BLOCKED_ROBOTS'].includes(p.error?.code)).length;
    expect(fetched).toBeLessThan(800);
    // Pages already running when the cancel came were kept; one starting in that instant may be
    // fetched without its reservation.
    expect(await reserved()).toBeLessThanOrEqual(fetched);
    expect(await reserved()).toBeGreaterThanOrEqual(fetched - 2);
  }, 150_000);

  // As when a page's queue job runs again while its first run is still in flight (its lock lapsed,
  // or it was queued again): the hold in Redis lets one run fetch and mark it.
  it('fetches a page once, and counts one try, when two runs of it meet', async () => {
    const path = `/slow?ms=800&tag=${randomBytes(4).toString('hex')}`;
    const res = await post({ url: `${site.origin}${path}`, limit: 1, ignore_sitemap: true }).expect(202);
    const jobId: string = res.body.job_id;
    for (;;) {
      const job = await api.http().get(`/v1/jobs/${jobId}`).set('Authorization', `Bearer ${account.liveKey}`);
      if (job.body.status !== 'queued') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await worker.app.get(JobProducer).add('crawl-page', { jobId, idx: 0 }, { again: true });
    const job = await waitForJob(api, account.liveKey, jobId);
    expect(job).toMatchObject({ status: 'completed', completed: 1, failed: 0 });
    expect(site.hits(path)).toBe(1);
    const tries = await api.app
      .get(DataSource)
      .query('SELECT attempts FROM job_pages WHERE job_id = ?', [jobId]);
    expect(tries).toEqual([{ attempts: 1 }]);
  });

  it('ignore_sitemap: only linked pages', async () => {
    const { paths, skipped } = await crawl({ ignore_sitemap: true });
    expect(sorted(paths)).toEqual(sorted(expectedPaths(5)));
    expect(skipped['/crawl/private/sitemap-listed']).toBeUndefined();
    expect(skipped['/crawl/private/secret']).toBe('BLOCKED_ROBOTS');
  }, 150_000);

  it('respect_robots_txt false: disallowed pages are fetched too', async () => {
    const { paths, skipped } = await crawl({ respect_robots_txt: false });
    expect(sorted(paths)).toEqual(
      sorted([
        ...expectedPaths(5),
        '/crawl/sitemap-only',
        '/crawl/private/secret',
        '/crawl/private/hidden',
        '/crawl/private/sitemap-listed',
      ]),
    );
    expect(Object.values(skipped)).not.toContain('BLOCKED_ROBOTS');
  }, 150_000);

  it.each([1, 2])(
    'max_depth %i',
    async (maxDepth) => {
      const { paths } = await crawl({ max_depth: maxDepth });
      expect(sorted(paths)).toEqual(sorted([...expectedPaths(maxDepth), '/crawl/sitemap-only']));
    },
    150_000,
  );

  it('include_paths and exclude_paths filter discovered paths; the start page is always fetched', async () => {
    const blog = await crawl({ include_paths: ['^/crawl/blog/'], ignore_sitemap: true });
    expect(sorted(blog.paths)).toEqual(
      sorted([
        '/crawl/',
        '/crawl/blog/',
        '/crawl/blog/post-1',
        '/crawl/blog/post-2',
        '/crawl/blog/post-1/print',
      ]),
    );
    expect(blog.skipped['/crawl/about']).toBe('OUT_OF_SCOPE');
    expect(blog.skipped['/crawl/deep/1']).toBe('OUT_OF_SCOPE');
    expect(blog.byPath('/crawl/about')!.error.message).toMatch(/include_paths/);

    const noDeep = await crawl({ exclude_paths: ['/deep/', '^/crawl/(spa|hash)'], ignore_sitemap: true });
    expect(sorted(noDeep.paths)).toEqual(
      sorted(expectedPaths(5).filter((p) => !/\/crawl\/(deep|spa|hash)/.test(p))),
    );
    expect(noDeep.skipped['/crawl/deep/1']).toBe('OUT_OF_SCOPE');
    expect(noDeep.skipped['/crawl/spa/']).toBe('OUT_OF_SCOPE');
  }, 200_000);

  it('stops at limit: the first pages in discovery order', async () => {
    const { job, paths, skipped } = await crawl({ limit: 5 });
    expect(paths).toEqual([
      '/crawl/',
      '/crawl/about',
      '/crawl/products?a=1&b=2',
      '/crawl/blog/',
      '/crawl/deep/1',
    ]);
    // At most `limit` URLs are reported unfetched as well.
    expect(Object.keys(skipped)).toHaveLength(5);
    expect(job.status).toBe('completed');
    expect(site.hits('/crawl/spa/')).toBe(0);
  }, 150_000);

  it('refuses bad crawl options with 400', async () => {
    const url = `${site.origin}/crawl/`;
    for (const body of [
      { url, limit: 0 },
      { url, limit: 100_001 },
      { url, max_depth: -1 },
      { url, include_paths: ['(?=lookahead)'] },
      { url, exclude_paths: ['(unclosed'] },
      { url, include_paths: Array.from({ length: 51 }, (_, i) => `/p${i}`) },
      { url, include_paths: ['x'.repeat(501)] },
      { url, allow_subdomains: 'yes' },
      { url: 'ftp://example.com/' },
      { url: `http://127.0.0.2:${site.port}/crawl/` },
    ]) {
      const res = await post(body);
      expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
    }
    const res = await post({ url, include_paths: ['(?=x)'] });
    expect(res.body.errors).toEqual([
      {
        field: 'include_paths',
        message: expect.stringMatching(/include_paths\[0\] is not a valid RE2 pattern/),
      },
    ]);
  });
});
