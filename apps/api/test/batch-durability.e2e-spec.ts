import { DataSource } from 'typeorm';
import { FixtureSite, startFixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { OwnRedis, startRedisServer } from '../../../test/support/redis-server';
import { allResults, waitForFinishedPages, waitForJob } from '../../../test/support/jobs';
import { WorkerFleet } from '../../../test/support/worker-fleet';
import { browserProcesses } from '../../../libs/rendering/test/browser-processes';

/**
 * A worker stopped with SIGTERM mid-batch, on a redis-server of its own, with workers as real child
 * processes (from dist: npm test builds first). kill -9 and a Redis FLUSHALL mid-batch are the
 * larger cases of test/resilience/faults.resilience-spec.ts.
 */
describe('batch durability', () => {
  let site: FixtureSite;
  let redis: OwnRedis;
  let api: ApiHarness;
  let account: TestAccount;
  let workers: WorkerFleet;

  /** Every page exactly once: results in order, one row per index, counters equal to the rows. */
  async function expectExactlyOnce(id: string, urls: string[]): Promise<void> {
    const job = await waitForJob(api, account.liveKey, id, 180_000);
    expect(job).toMatchObject({ status: 'completed', total: urls.length, completed: urls.length, failed: 0 });
    const data = await allResults(api, account.liveKey, id);
    expect(data.map((p) => p.index)).toEqual(urls.map((_, i) => i));
    expect(data.map((p) => p.url)).toEqual(urls);
    const db = api.app.get(DataSource);
    const [row] = await db.query(
      "SELECT COUNT(*) AS n, SUM(status = 'succeeded') AS ok FROM job_pages WHERE job_id = ?",
      [id],
    );
    expect([Number(row.n), Number(row.ok)]).toEqual([urls.length, urls.length]);
  }

  beforeAll(async () => {
    site = await startFixtureSite();
    redis = await startRedisServer();
    workers = new WorkerFleet({ REDIS_URL: redis.url });
    api = await startApi({ REDIS_URL: redis.url });
    account = await createAccount(api, 'enterprise');
  });
  afterEach(() => workers?.stopAll());
  afterAll(async () => {
    await api?.close();
    await redis?.stop();
    await site?.close();
  });

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
    await expectExactlyOnce(body.job_id, urls);
    // Each page was fetched once: none was rendered by both workers.
    const fetchedTwice = urls.filter((u) => site.hits(u.slice(site.origin.length)) !== 1);
    expect(fetchedTwice).toEqual([]);
  }, 240_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
