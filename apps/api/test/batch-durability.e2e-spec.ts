import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { FixtureSite, startFixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { OwnRedis, startRedisServer } from '../../../test/support/redis-server';
import { RunningProcess, startWorkerProcess } from '../../../test/support/processes';
import { allResults, waitForJob } from '../../../test/support/jobs';

/**
 * Destructive cases on a redis-server of their own, with workers as real child processes (from
 * dist: npm test builds first), so a kill -9 or FLUSHALL never touches another test.
 */
describe('batch durability', () => {
  let site: FixtureSite;
  let redis: OwnRedis;
  let api: ApiHarness;
  let account: TestAccount;
  const workers: RunningProcess[] = [];

  async function startWorker(): Promise<RunningProcess> {
    const proc = await startWorkerProcess({ REDIS_URL: redis.url });
    workers.push(proc);
    return proc;
  }

  async function progress(id: string): Promise<number> {
    const res = await api
      .http()
      .get(`/v1/jobs/${id}`)
      .set('Authorization', `Bearer ${account.liveKey}`)
      .expect(200);
    return res.body.completed + res.body.failed;
  }

  async function waitForProgress(id: string, atLeast: number): Promise<void> {
    const deadline = Date.now() + 60_000;
    while ((await progress(id)) < atLeast) {
      if (Date.now() > deadline) throw new Error(`job ${id} never reached ${atLeast} finished pages`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

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
    api = await startApi({ REDIS_URL: redis.url });
    account = await createAccount(api, 'enterprise');
  });
  afterEach(async () => {
    for (const w of workers.splice(0)) {
      w.child.kill('SIGKILL');
      await w.exited;
    }
  });
  afterAll(async () => {
    await api?.close();
    await redis?.stop();
    await site?.close();
  });

  it('loses nothing and doubles nothing when a worker is killed with SIGKILL mid-batch', async () => {
    const urls = Array.from({ length: 400 }, (_, i) => `${site.origin}/slow?ms=20&page=${i}`);
    const first = await startWorker();
    const { body } = await api
      .http()
      .post('/v1/scrape/batch/async')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ urls })
      .expect(202);
    await waitForProgress(body.job_id, 50);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const finishedAtKill = await progress(body.job_id);
    expect(finishedAtKill).toBeLessThan(urls.length);
    await startWorker();
    await expectExactlyOnce(body.job_id, urls);
  }, 240_000);

  it('finishes a batch after Redis loses all its data mid-way', async () => {
    const urls = Array.from({ length: 300 }, (_, i) => `${site.origin}/slow?ms=20&flush=${i}`);
    await startWorker();
    const { body } = await api
      .http()
      .post('/v1/scrape/batch/async')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ urls })
      .expect(202);
    await waitForProgress(body.job_id, 30);
    const client = new Redis(redis.url);
    await client.flushall();
    client.disconnect();
    await expectExactlyOnce(body.job_id, urls);
  }, 240_000);
});
