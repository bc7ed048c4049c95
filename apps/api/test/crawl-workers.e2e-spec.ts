import Redis from 'ioredis';
import { FixtureSite, startFixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { OwnRedis, startRedisServer } from '../../../test/support/redis-server';
import { RunningProcess, startWorkerProcess } from '../../../test/support/processes';
import { allResults, waitForJob } from '../../../test/support/jobs';

const UNFETCHED = ['OUT_OF_SCOPE', 'BLOCKED_ROBOTS'];

/**
 * Crawls with three worker processes (from dist: npm test builds first) on a redis-server of the
 * test's own, racing for the same frontier: the limit is exact, one host is never fetched faster
 * than its Crawl-delay, and a crawl survives Redis losing everything.
 */
describe('crawls across worker processes', () => {
  let site: FixtureSite;
  let politeSite: FixtureSite;
  let redis: OwnRedis;
  let api: ApiHarness;
  let account: TestAccount;
  const workers: RunningProcess[] = [];

  async function startWorker(): Promise<void> {
    workers.push(
      await startWorkerProcess({ REDIS_URL: redis.url, WORKER_QUEUES: 'crawl', HOST_CONCURRENCY: '64' }),
    );
  }

  const post = (body: object) =>
    api.http().post('/v1/crawl').set('Authorization', `Bearer ${account.liveKey}`).send(body).expect(202);

  beforeAll(async () => {
    site = await startFixtureSite({ crawlDelaySeconds: null });
    politeSite = await startFixtureSite({ crawlDelaySeconds: 1 });
    redis = await startRedisServer();
    api = await startApi({ REDIS_URL: redis.url });
    account = await createAccount(api, 'enterprise');
    await Promise.all([startWorker(), startWorker(), startWorker()]);
  }, 120_000);
  afterAll(async () => {
    for (const w of workers) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await api?.close();
    await redis?.stop();
    await site?.close();
    await politeSite?.close();
  });

  it('fetches exactly `limit` pages when three workers race', async () => {
    site.resetHits();
    const { body } = await post({
      url: `${site.origin}/big/1`,
      limit: 37,
      max_depth: 10,
      ignore_sitemap: true,
    });
    const job = await waitForJob(api, account.liveKey, body.job_id, 120_000);
    const data = await allResults(api, account.liveKey, body.job_id);
    expect(data.filter((p) => p.error).map((p) => [p.url, p.error])).toEqual([]);
    expect(job).toMatchObject({ status: 'completed', total: 37, completed: 37, failed: 0 });
    expect(new Set(data.map((p) => p.url)).size).toBe(37);
    const fetched = site.requests().filter((r) => r.path.startsWith('/big/'));
    expect(fetched).toHaveLength(37);
    expect(new Set(fetched.map((r) => r.path)).size).toBe(37);
  }, 150_000);

  it('spaces the fetches of one host by its Crawl-delay whatever the number of workers', async () => {
    politeSite.resetHits();
    const { body } = await post({ url: `${politeSite.origin}/crawl/`, limit: 6, ignore_sitemap: true });
    const job = await waitForJob(api, account.liveKey, body.job_id, 120_000);
    expect(job.status).toBe('completed');
    // The first request for each page (render auto may fetch a page again in the browser).
    const first = new Map<string, number>();
    for (const r of politeSite.requests()) {
      if (r.path.startsWith('/crawl/') && !first.has(r.path)) first.set(r.path, r.at);
    }
    const times = [...first.values()].sort((a, b) => a - b);
    expect(times).toHaveLength(6);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(900);
    expect(politeSite.leakedRequests()).toEqual([]);
  }, 150_000);

  it('survives Redis losing everything mid-crawl: no page twice in the result, limit kept', async () => {
    const { body } = await post({
      url: `${site.origin}/big/1`,
      limit: 300,
      max_depth: 10,
      ignore_sitemap: true,
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await api
        .http()
        .get(`/v1/jobs/${body.job_id}`)
        .set('Authorization', `Bearer ${account.liveKey}`);
      if (res.body.completed >= 40) break;
      if (Date.now() > deadline) throw new Error('crawl never got going');
      await new Promise((r) => setTimeout(r, 50));
    }
    const client = new Redis(redis.url);
    await client.flushall();
    await client.quit();
    const job = await waitForJob(api, account.liveKey, body.job_id, 180_000);
    const data = await allResults(api, account.liveKey, body.job_id);
    const fetched = data.filter((p) => !UNFETCHED.includes(p.error?.code));
    expect(data.filter((p) => p.error).map((p) => [p.url, p.error])).toEqual([]);
    expect(job).toMatchObject({ status: 'completed', failed: 0 });
    expect(fetched).toHaveLength(300);
    expect(new Set(fetched.map((p) => p.url)).size).toBe(300);
  }, 240_000);
});
