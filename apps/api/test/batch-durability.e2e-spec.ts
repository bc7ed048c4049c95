import { DataSource } from 'typeorm';
import type { FixtureSite } from '../../../test/fixtures/site/fixture-site';
import type { ApiHarness, TestAccount } from '../../../test/support/api-harness';
import { expectEveryPageOnce, waitForFinishedPages } from '../../../test/support/jobs';
import { IsolatedService, WorkerFleet, startIsolatedService } from '../../../test/support/worker-fleet';
import { browserProcesses } from '../../../libs/rendering/test/browser-processes';

/**
 * A worker stopped with SIGTERM mid-batch, and in the middle of a hostile page, on a redis-server of
 * its own, with workers as real child processes (from dist: npm test builds first). kill -9 and a Redis FLUSHALL mid-batch are the
 * larger cases of test/resilience/faults.resilience-spec.ts, on the same startIsolatedService.
 */
describe('batch durability', () => {
  let site: FixtureSite;
  let api: ApiHarness;
  let account: TestAccount;
  let workers: WorkerFleet;
  let service: IsolatedService | undefined;

  beforeAll(async () => {
    service = await startIsolatedService();
    ({ site, api, account, workers } = service);
  });
  afterEach(() => workers?.stopAll());
  afterAll(() => service?.close());

  it('finishes or hands back its pages when a worker gets SIGTERM mid-batch, then exits 0', async () => {
    const urls = Array.from({ length: 150 }, (_, i) => `${site.origin}/slow?ms=150&drain=${i}`);
    // The slow answer is the page's whole network activity: no need to wait long for quiet after it.
    const fast = { RENDER_CONCURRENCY: '4', RENDER_IDLE_MS: '50' };
    const first = await workers.start({ ...fast, SHUTDOWN_GRACE_MS: '60000' });
    const { body } = await api
      .http()
      .post('/v1/scrape/batch/async')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ urls, render: 'browser' })
      .expect(202);
    await waitForFinishedPages(api, account.liveKey, body.job_id, 30);
    const browsers = browserProcesses('playwright', first.child.pid);
    expect(browsers.length).toBeGreaterThan(0);
    first.child.kill('SIGTERM');
    // 0 only when every active job finished or was handed back within SHUTDOWN_GRACE_MS (else 1).
    expect(await first.exited).toBe(0);
    expect(browsers.filter(isAlive)).toEqual([]);
    const db = api.app.get(DataSource);
    const [row] = await db.query(
      "SELECT SUM(status = 'running') AS running, SUM(status = 'pending') AS pending FROM job_pages WHERE job_id = ?",
      [body.job_id],
    );
    // Nothing left half-done, and work left for the next worker.
    expect(Number(row.running)).toBe(0);
    expect(Number(row.pending)).toBeGreaterThan(0);
    await workers.start(fast);
    await expectEveryPageOnce(api, account.liveKey, body.job_id, urls);
    // Each page was fetched once: none was rendered by both workers.
    const fetchedTwice = urls.filter((u) => site.hits(u.slice(site.origin.length)) !== 1);
    expect(fetchedTwice).toEqual([]);
  }, 240_000);

  it('drains within the shutdown grace when SIGTERM comes during a hostile page, whose result still goes out', async () => {
    // The wide table converts in about 1.2 s on a quiet 2-core machine: a 250 ms content deadline
    // (15 s by default) makes it TOO_COMPLEX wherever the test runs. The grace is the test
    // environment's 15 s.
    const worker = await workers.start({ CONTENT_TIMEOUT_MS: '250' });
    const path = '/hostile/wide-table';
    site.resetHits();
    // then() sends the request (supertest sends on the first then or end).
    const answer = api
      .http()
      .post('/v1/scrape')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ url: site.origin + path, render: 'http' })
      .then((res) => res);
    for (const deadline = Date.now() + 30_000; site.hits(path) === 0;) {
      if (Date.now() > deadline) throw new Error('the worker never fetched the page');
      await new Promise((r) => setTimeout(r, 50));
    }
    const signalled = Date.now();
    worker.child.kill('SIGTERM');
    // 0: the page in flight finished within SHUTDOWN_GRACE_MS (its content work is in a thread,
    // so the worker's loop took the signal at once and its content deadline ended the page).
    expect(await worker.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(15_000);
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.error).toEqual({ code: 'TOO_COMPLEX', message: expect.any(String) });
  }, 120_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
