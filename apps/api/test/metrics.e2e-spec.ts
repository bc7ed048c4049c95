import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { RenderConcurrency } from '@app/rendering';
import { HttpsReceiver, makeTestCertificate, startHttpsReceiver } from '../../../test/fixtures/https';
import { FixtureSite, startFixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { waitForJob } from '../../../test/support/jobs';
import { isolatedStores } from '../../../test/support/stores';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format, samples only. */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]),
      );
      return { name: m[1], labels, value: Number(m[3]) };
    });
}

/** Every sample of `name` as `labelValues -> value`, so a whole series can be compared at once. */
function series(samples: Sample[], name: string, ...labelNames: string[]): Record<string, number> {
  return Object.fromEntries(
    samples
      .filter((s) => s.name === name)
      .map((s) => [labelNames.map((l) => s.labels[l]).join(' '), s.value]),
  );
}

/**
 * /metrics of both apps after a known workload on a database and Redis prefix of this suite's own:
 * five async scrapes of the fixture site (two through Playwright, one through Puppeteer, two over
 * plain HTTP of which one is a 404), a webhook that fails once with 500 and then is delivered, a 402 and a 429. Counters are exact.
 */
describe('metrics', () => {
  const certificate = makeTestCertificate();
  let stores: Awaited<ReturnType<typeof isolatedStores>>;
  let site: FixtureSite;
  let receiver: HttpsReceiver;
  let api: ApiHarness;
  let worker: WorkerHarness | undefined;
  let account: TestAccount;
  let tiny: TestAccount;

  const scrapeMetrics = async (server: Parameters<typeof request>[0]) => {
    const res = await request(server).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    return parse(res.text);
  };
  const apiMetrics = () => scrapeMetrics(api.app.getHttpServer());
  const workerMetrics = () => scrapeMetrics(worker!.app.getHttpServer());

  /** Polls until `done` holds for a scrape; the assertions that follow are then exact. */
  async function scrapeUntil(read: () => Promise<Sample[]>, done: (s: Sample[]) => boolean) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const samples = await read();
      if (done(samples) || Date.now() > deadline) return samples;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    stores = await isolatedStores();
    site = await startFixtureSite({ crawlDelaySeconds: null });
    receiver = await startHttpsReceiver({ certificate, behaviour: [500, 200] });
    api = await startApi(stores.env);
    account = await createAccount(api, 'pro');
    tiny = await createAccount(api, 'starter');
    const db = api.app.get(DataSource);
    const plan = `tiny_${randomBytes(4).toString('hex')}`;
    await db.query(
      'INSERT INTO plans (name, rate_per_minute, monthly_quota, max_concurrent_pages) VALUES (?, 1, 1, 1)',
      [plan],
    );
    await db.query('UPDATE accounts SET plan_id = (SELECT id FROM plans WHERE name = ?) WHERE id = ?', [
      plan,
      tiny.id,
    ]);
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await receiver?.close();
    await site?.close();
    await stores?.drop();
  });

  it('counts a known workload exactly on the API and the worker', async () => {
    const post = (body: object) =>
      api
        .http()
        .post('/v1/scrape/async')
        .set('Authorization', `Bearer ${account.liveKey}`)
        .send(body)
        .expect(202)
        .then((res) => res.body.job_id as string);
    const browser = { render: 'browser', engine: 'playwright' };
    const posted = Date.now();
    const first = await post({ url: `${site.origin}/static/article/1`, ...browser });
    const firstQueued = Date.now();
    const jobs = [
      first,
      await post({ url: `${site.origin}/static/article/2`, ...browser, webhook_url: receiver.url }),
      await post({ url: `${site.origin}/static/article/3` }),
      await post({ url: `${site.origin}/status/404` }),
      await post({ url: `${site.origin}/static/article/6`, render: 'browser', engine: 'puppeteer' }),
    ];

    // No worker yet: the five jobs wait in the render queue.
    const scraped = Date.now();
    let samples = await apiMetrics();
    expect(series(samples, 'scraper_queue_jobs', 'queue', 'state')).toEqual({
      'render waiting': 5,
      'render active': 0,
      'render delayed': 0,
      'render failed': 0,
      'crawl waiting': 0,
      'crawl active': 0,
      'crawl delayed': 0,
      'crawl failed': 0,
      'webhooks waiting': 0,
      'webhooks active': 0,
      'webhooks delayed': 0,
      'webhooks failed': 0,
    });
    const age = series(samples, 'scraper_queue_oldest_waiting_age_seconds', 'queue');
    expect(age.crawl).toBe(0);
    expect(age.webhooks).toBe(0);
    // The first job has waited at least since its POST answered, and at most since it was sent.
    expect(age.render).toBeGreaterThanOrEqual((scraped - firstQueued) / 1000);
    expect(age.render).toBeLessThanOrEqual((Date.now() - posted) / 1000);

    // A 402 (the batch needs 2 pages of a quota of 1), then a 429 (the bucket of 1 a minute is empty).
    const tinyCall = (req: request.Test) => req.set('Authorization', `Bearer ${tiny.liveKey}`);
    await tinyCall(api.http().post('/v1/scrape/batch/async'))
      .send({ urls: [`${site.origin}/static/article/4`, `${site.origin}/static/article/5`] })
      .expect(402);
    await tinyCall(api.http().get('/v1/me')).expect(429);
    await api.http().get('/no/such/route').expect(404);

    worker = await startWorker({
      ...stores.env,
      NODE_EXTRA_CA_CERTS: certificate.caPath,
      WEBHOOK_RETRY_SCHEDULE: '200ms',
      CONTENT_THREADS: '2',
    });
    const ended = await Promise.all(jobs.map((id) => waitForJob(api, account.liveKey, id)));
    expect(ended.map((j) => [j.status, j.result.metadata.engine, j.result.error?.code])).toEqual([
      ['completed', 'playwright', undefined],
      ['completed', 'playwright', undefined],
      ['completed', 'http', undefined],
      // Its only page failed, so the job did.
      ['failed', 'http', 'HTTP_4XX'],
      ['completed', 'puppeteer', undefined],
    ]);
    await receiver.waitForRequests(2, 30_000);

    samples = await scrapeUntil(
      workerMetrics,
      (s) => series(s, 'scraper_webhook_attempts_total', 'outcome').delivered === 1,
    );
    expect(series(samples, 'scraper_pages_rendered_total', 'engine', 'outcome')).toEqual({
      'playwright success': 2,
      'http success': 1,
      'http HTTP_4XX': 1,
      'puppeteer success': 1,
    });
    expect(series(samples, 'scraper_render_duration_seconds_count', 'engine')).toEqual({
      playwright: 2,
      http: 2,
      puppeteer: 1,
    });
    expect(series(samples, 'scraper_webhook_attempts_total', 'outcome')).toEqual({
      delivered: 1,
      gone: 0,
      http_error: 1,
      no_answer: 0,
    });
    // Playwright: one browser (BROWSER_POOL_SIZE 1) with the account's one context, both idle now.
    // Puppeteer: the cluster's one browser, idle; its contexts live only as long as their page.
    expect(series(samples, 'scraper_browser_pool_browsers', 'engine', 'state')).toEqual({
      'playwright in_use': 0,
      'playwright idle': 1,
      'puppeteer in_use': 0,
      'puppeteer idle': 1,
    });
    expect(series(samples, 'scraper_browser_pool_contexts', 'engine', 'state')).toEqual({
      'playwright in_use': 0,
      'playwright idle': 1,
      'puppeteer in_use': 0,
      'puppeteer idle': 0,
    });
    expect(series(samples, 'scraper_browser_pool_pages_in_flight', 'engine')).toEqual({
      playwright: 0,
      puppeteer: 0,
    });
    expect(series(samples, 'scraper_browser_launches_total', 'engine')).toEqual({
      playwright: 1,
      puppeteer: 1,
    });
    expect(series(samples, 'scraper_browser_restarts_total', 'engine', 'reason')).toEqual({
      'playwright recycled': 0,
      'playwright crashed': 0,
      'puppeteer recycled': 0,
      'puppeteer crashed': 0,
    });
    expect(series(samples, 'scraper_browser_page_retries_total', 'engine')).toEqual({
      playwright: 0,
      puppeteer: 0,
    });
    // The browser level in force: RENDER_CONCURRENCY=auto's, idle at its start level again.
    expect(series(samples, 'scraper_render_concurrency')['']).toBe(worker.app.get(RenderConcurrency).level());
    // One content task a page: the http page's decision and its formats are one task.
    expect(series(samples, 'scraper_content_threads')['']).toBe(2);
    expect(series(samples, 'scraper_content_tasks', 'state')).toEqual({ busy: 0, queued: 0 });
    expect(series(samples, 'scraper_content_tasks_total', 'outcome')).toEqual({
      success: 5,
      too_complex: 0,
      error: 0,
    });
    expect(series(samples, 'scraper_content_threads_replaced_total', 'bound')).toEqual({
      deadline: 0,
      heap: 0,
    });
    expect(series(samples, 'process_resident_memory_bytes')['']).toBeGreaterThan(0);
    expect(series(samples, 'nodejs_heap_size_used_bytes')['']).toBeGreaterThan(0);

    // Once every queue is drained, the API's view of the same workload.
    samples = await scrapeUntil(apiMetrics, (s) =>
      s.every(
        (x) => x.name !== 'scraper_queue_jobs' || !['waiting', 'active'].includes(x.labels.state) || !x.value,
      ),
    );
    expect(
      Object.values(series(samples, 'scraper_queue_jobs', 'queue', 'state')).every((count) => count === 0),
    ).toBe(true);
    expect(series(samples, 'scraper_queue_oldest_waiting_age_seconds', 'queue')).toEqual({
      render: 0,
      crawl: 0,
      webhooks: 0,
    });
    expect(series(samples, 'scraper_quota_rejections_total', 'route')).toEqual({
      '/v1/scrape/batch/async': 1,
    });
    expect(series(samples, 'scraper_rate_limit_rejections_total', 'route')).toEqual({ '/v1/me': 1 });
    const requests = series(
      samples,
      'scraper_http_request_duration_seconds_count',
      'method',
      'route',
      'status_class',
    );
    expect(requests).toMatchObject({
      'POST /v1/scrape/async 2xx': 5,
      'POST /v1/scrape/batch/async 4xx': 1,
      'GET /v1/me 4xx': 1,
      'GET unmatched 4xx': 1,
      'POST /admin/v1/accounts 2xx': 2,
    });
    expect(requests['GET /metrics 2xx']).toBeGreaterThanOrEqual(1);
    // Polled by waitForJob: counted under the template, never under a job's own path.
    expect(requests['GET /v1/jobs/:id 2xx']).toBeGreaterThanOrEqual(5);
    const routes = samples.flatMap((s) => (s.labels.route ? [s.labels.route] : []));
    expect(routes.filter((r) => r.includes('job_'))).toEqual([]);
    expect(series(samples, 'process_cpu_user_seconds_total')['']).toBeGreaterThan(0);
  });
});
