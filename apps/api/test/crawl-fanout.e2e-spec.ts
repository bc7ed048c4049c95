import { Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { allResults, waitForJob } from '../../../test/support/jobs';

const PAGES_EACH = 4;
const MANY_LINKS = 50_000;

type RobotsKind = 'rules' | 'drip' | 'oversized';

interface Origin {
  origin: string;
  robotsHits: number;
  server: Server;
}

/**
 * Loopback sites on ports of their own: other origins on the same host, so all in a crawl's
 * default scope. /start links to its own origin's pages; every other page to every page of every
 * origin and to a /private page that robots.txt disallows, so several pages, on both workers,
 * meet the other origins at once. robots.txt answers late (so workers ask for it at the same time), drips
 * forever, or is larger than ROBOTS_MAX_BYTES.
 */
async function startOrigin(kind: RobotsKind, all: () => Origin[]): Promise<Origin> {
  const self = { robotsHits: 0 } as Origin;
  self.server = createServer((req, res) => {
    if (req.url === '/robots.txt') {
      self.robotsHits++;
      const rules = 'User-agent: *\nDisallow: /private\n';
      if (kind === 'rules') setTimeout(() => res.end(rules), 300);
      else if (kind === 'oversized') res.end(rules + `# ${'x'.repeat(8192)}\n`);
      else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const drip = setInterval(() => res.write('#'), 200);
        res.on('close', () => clearInterval(drip));
      }
      return;
    }
    res.setHeader('content-type', 'text/html');
    if (req.url === '/many') {
      const anchors = Array.from({ length: MANY_LINKS }, (_, i) => `<a href="/m/${i}">${i}</a>`);
      return res.end(`<html><body>${anchors.join('')}</body></html>`);
    }
    const linked = req.url === '/start' ? all().filter((o) => o === self) : all();
    const links = linked.flatMap((o) => [
      ...Array.from({ length: PAGES_EACH }, (_, i) => `<a href="${o.origin}/p/${i}">p${i}</a>`),
      `<a href="${o.origin}/private/x">private</a>`,
    ]);
    res.end(`<html><head><title>${req.url}</title></head><body><p>page</p>${links.join(' ')}</body></html>`);
  });
  await new Promise<void>((resolve) => self.server.listen(0, '127.0.0.1', resolve));
  self.origin = `http://127.0.0.1:${(self.server.address() as AddressInfo).port}`;
  return self;
}

/** robots.txt is read once per origin per crawl, bounded in bytes and time; links per page are capped. */
describe('bounded fan-out: robots.txt and links', () => {
  let origins: Origin[];
  let api: ApiHarness;
  let workers: WorkerHarness[];
  let account: TestAccount;

  beforeAll(async () => {
    const list: Origin[] = [];
    for (const kind of ['rules', 'rules', 'drip', 'oversized'] as const)
      list.push(await startOrigin(kind, () => list));
    origins = list;
    api = await startApi();
    // Two workers, so the once-per-origin holds across processes' caches, not only within one.
    const bounds = { ROBOTS_MAX_BYTES: '2048', ROBOTS_TIMEOUT_MS: '1000', RENDER_CONCURRENCY: '4' };
    workers = [await startWorker(bounds), await startWorker(bounds)];
    account = await createAccount(api, 'pro');
  });
  afterAll(async () => {
    await Promise.all((workers ?? []).map((w) => w.close()));
    await api?.close();
    await Promise.all((origins ?? []).map((o) => new Promise((r) => o.server.close(r))));
  });

  it('fetches each origin’s robots.txt once in a crawl across four origins and two workers', async () => {
    const [rules1, rules2, drip, oversized] = origins;
    const res = await api
      .http()
      .post('/v1/crawl')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ url: `${rules1.origin}/start`, limit: 100, max_depth: 2, ignore_sitemap: true, render: 'http' })
      .expect(202);
    const job = await waitForJob(api, account.liveKey, res.body.job_id, 120_000);
    expect(job.status).toBe('completed');
    const data = await allResults(api, account.liveKey, res.body.job_id);
    const blocked = data.filter((p) => p.error?.code === 'BLOCKED_ROBOTS').map((p) => p.url);
    const fetched = data.filter((p) => !p.error).map((p) => p.url);

    expect(origins.map((o) => o.robotsHits)).toEqual([1, 1, 1, 1]);
    // Rules where the file was read; none where it dripped past the time cap or was too large.
    expect(blocked.sort()).toEqual([`${rules1.origin}/private/x`, `${rules2.origin}/private/x`].sort());
    expect(fetched).toEqual(
      expect.arrayContaining([`${drip.origin}/private/x`, `${oversized.origin}/private/x`]),
    );
    expect(fetched).toHaveLength(1 + origins.length * (PAGES_EACH + 1) - 2);
  });

  it(`takes the first LINKS_MAX_PER_PAGE links of a page of ${MANY_LINKS}`, async () => {
    const origin = origins[0].origin;
    const res = await api
      .http()
      .post('/v1/scrape')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ url: `${origin}/many`, formats: ['links'], render: 'http' })
      .expect(200);
    expect(res.body.error).toBeUndefined();
    expect(res.body.links).toHaveLength(10_000);
    expect(res.body.links[0]).toBe(`${origin}/m/0`);
    expect(res.body.links[9_999]).toBe(`${origin}/m/9999`);
  });
});
