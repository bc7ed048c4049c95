import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { RenderConcurrency } from '@app/rendering';
import { ApiHarness, createAccountOnPlan, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker, waitForEmptyRenderQueue } from '../../../test/support/worker-harness';
import { waitForJob } from '../../../test/support/jobs';

/** CPU each page's script spins for after load: pages in flight at once saturate the CPUs. */
const BURN_MS = 1500;
const PAGES = 30;

/** Pages whose script keeps a renderer busy for BURN_MS, then writes its marker. */
function startBurnSite(): Promise<Server> {
  const page = (n: string) => `<!doctype html><html lang="en"><head><title>burn ${n}</title></head><body>
<p>burnPage ${n}</p>
<script>addEventListener('load', function () {
  var end = Date.now() + ${BURN_MS}; while (Date.now() < end) {}
  document.body.insertAdjacentHTML('beforeend', '<p>burnDone</p>');
});</script></body></html>`;
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? ''));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * RENDER_CONCURRENCY=auto in a real worker (Redis, MySQL, Chromium): a burst of pages that
 * saturate the CPUs lowers the level from its start, and once the burst is over the level returns
 * to the start. Directions only: how far and how fast depends on the machine and its other load.
 */
describe('autoscaled render concurrency (worker)', () => {
  let site: Server;
  let api: ApiHarness;
  let worker: WorkerHarness;

  beforeAll(async () => {
    site = await startBurnSite();
    api = await startApi();
    worker = await startWorker({ RENDER_CONCURRENCY: 'auto', RENDER_CONCURRENCY_MIN: '1' });
    // Levels are this worker's only once what earlier suites left in the queue is gone.
    await waitForEmptyRenderQueue(worker);
  }, 90_000);
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('lowers the level under a CPU-bound burst, then returns to the start level', async () => {
    const concurrency = worker.app.get(RenderConcurrency);
    const start = concurrency.level();
    expect(start).toBeGreaterThan(1);
    expect(start).toBeLessThanOrEqual(concurrency.max);

    const account = await createAccountOnPlan(api, {
      ratePerMinute: 6000,
      monthlyQuota: 1000,
      maxConcurrentPages: 64,
    });
    const { port } = site.address() as AddressInfo;
    const urls = Array.from({ length: PAGES }, (_, i) => `http://127.0.0.1:${port}/burn?n=${i}`);
    const { body } = await api
      .http()
      .post('/v1/scrape/batch/async')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ urls, render: 'browser', formats: ['markdown'], timeout: 120_000 })
      .expect(202);

    const levels = new Set<number>();
    const watching = setInterval(() => levels.add(concurrency.level()), 50);
    const job = await waitForJob(api, account.liveKey, body.job_id, 300_000).finally(() =>
      clearInterval(watching),
    );
    expect(job).toMatchObject({ status: 'completed', completed: PAGES, failed: 0 });
    expect(Math.min(...levels)).toBeLessThan(start);

    // Idle again: back to the start level, as the gauge shows.
    for (let waited = 0; concurrency.level() !== start; waited += 100) {
      if (waited > 30_000) throw new Error(`the level stayed at ${concurrency.level()}, not ${start}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const metrics = await worker.app.get(Registry).metrics();
    expect(metrics).toContain(`scraper_render_concurrency ${start}\n`);
  }, 360_000);
});
