import { DataSource } from 'typeorm';
import { UsageFlusher } from '@app/auth';
import { MAPPED, MapSite, startMapSite } from '../../../test/fixtures/map/map-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';

describe('POST /v1/map through the render queue', () => {
  let site: MapSite;
  let huge: MapSite;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;
  const post = (body: unknown) =>
    api
      .http()
      .post('/v1/map')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send(body as object);

  beforeAll(async () => {
    site = await startMapSite();
    huge = await startMapSite({ hugeSitemapUrls: 50_000 });
    api = await startApi();
    worker = await startWorker();
    account = await createAccount(api, 'pro');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await huge?.close();
    await site?.close();
  });

  it("lists robots.txt's nested and gzip'd sitemaps and the start page's links, once each, in scope", async () => {
    const res = await post({ url: `${site.origin}/` }).expect(200);
    const paths = [MAPPED.start, ...MAPPED.gzipped, ...MAPPED.nested, ...MAPPED.linked].map(
      (p) => `${site.origin}${p}`,
    );
    // The bomb was left unread; the other hosts and the subdomain are out of scope.
    expect(res.body).toEqual({ links: paths, truncated: false });
  });

  it('lists only the start page and its links with ignore_sitemap', async () => {
    const res = await post({ url: `${site.origin}/`, ignore_sitemap: true }).expect(200);
    expect(res.body.links).toEqual(
      [MAPPED.start, '/about', '/pricing?currency=eur&plan=pro', '/docs/intro'].map(
        (p) => `${site.origin}${p}`,
      ),
    );
  });

  it('ranks URLs holding the search words first and cuts the list to limit', async () => {
    const res = await post({ url: `${site.origin}/`, search: 'Blog post', limit: 3 }).expect(200);
    expect(res.body).toEqual({
      links: [...MAPPED.gzipped, MAPPED.start].map((p) => `${site.origin}${p}`),
      truncated: true,
    });
  });

  it('maps a sitemap of 50,000 URLs up to a limit of 30,000', async () => {
    const res = await post({ url: `${huge.origin}/`, limit: 30_000 }).expect(200);
    expect(res.body.links).toHaveLength(30_000);
    expect(res.body.truncated).toBe(true);
    expect(res.body.links[0]).toBe(`${huge.origin}/`);
    expect(new Set(res.body.links).size).toBe(30_000);
    expect(res.body.links[29_999]).toBe(`${huge.origin}/p/29999`);
  });

  it("takes one page of the month's quota and counts one request a map; a refused one costs nothing", async () => {
    const own = await createAccount(api, 'pro');
    const as = (body: object) =>
      api.http().post('/v1/map').set('Authorization', `Bearer ${own.liveKey}`).send(body);
    await as({ url: 'http://127.0.0.2/' }).expect(400);
    await as({ url: `${site.origin}/`, limit: 2 }).expect(200);
    const [row] = await api.app
      .get(DataSource)
      .query<{ reserved: number }[]>(
        "SELECT reserved FROM quota_monthly WHERE account_id = ? AND environment = 'production'",
        [own.id],
      );
    expect(Number(row.reserved)).toBe(1);
    await worker.app.get(UsageFlusher).flush();
    const me = await api.http().get('/v1/me').set('Authorization', `Bearer ${own.liveKey}`).expect(200);
    expect(me.body.usage).toMatchObject({ requests_this_month: 1, success_rate: 1 });
  });

  it.each([
    [{}, 'url'],
    [{ url: 'ftp://127.0.0.1/file' }, 'url'],
    [{ url: 'http://127.0.0.2/' }, 'url'],
    [{ url: 'http://[::ffff:127.0.0.2]/' }, 'url'],
    [{ url: 'http://foo.localhost/' }, 'url'],
    [{ url: 'http://127.0.0.1/', limit: 30_001 }, 'limit'],
    [{ url: 'http://127.0.0.1/', limit: 0 }, 'limit'],
    [{ url: 'http://127.0.0.1/', limit: 1.5 }, 'limit'],
    [{ url: 'http://127.0.0.1/', search: 5 }, 'search'],
    [{ url: 'http://127.0.0.1/', search: 'x'.repeat(501) }, 'search'],
    [{ url: 'http://127.0.0.1/', allow_subdomains: 'yes' }, 'allow_subdomains'],
    [{ url: 'http://127.0.0.1/', ignore_sitemap: 1 }, 'ignore_sitemap'],
    [{ url: 'http://127.0.0.1/', colour: 'red' }, 'colour'],
  ])('refuses %j with a 400 naming %s, as POST /v1/scrape does', async (body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    const scrape = await api
      .http()
      .post('/v1/scrape')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ url: (body as { url?: string }).url });
    if (field === 'url') expect(scrape.body).toEqual(res.body);
  });
});
