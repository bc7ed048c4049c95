import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JobProducer } from '@app/queues';
import { FixtureSite, startFixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, createAccountOnPlan, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker, waitForEmptyRenderQueue } from '../../../test/support/worker-harness';
import { allResults, waitForJob } from '../../../test/support/jobs';

/** Each slow page answers after this long, so pages rendered at once overlap at the site. */
const SLOW_MS = 800;

// A batch of one chunk (5 pages) is a single queue job: without splitting it would
// render one page at a time however many slots the worker has.
describe('batch pages over idle slots', () => {
  let site: FixtureSite;
  let api: ApiHarness;
  let worker: WorkerHarness;

  beforeAll(async () => {
    site = await startFixtureSite();
    api = await startApi();
    worker = await startWorker({ RENDER_CONCURRENCY: '4' });
    // Splitting waits for an empty queue: what earlier suites left behind goes first.
    await waitForEmptyRenderQueue(worker);
  }, 90_000);
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await site?.close();
  });

  /** Runs 5 slow pages as one batch; the most of them the site was serving at one time. */
  async function pagesAtOnce(maxConcurrentPages: number): Promise<number> {
    const account = await createAccountOnPlan(api, {
      ratePerMinute: 6000,
      monthlyQuota: 1000,
      maxConcurrentPages,
    });
    const tag = randomBytes(4).toString('hex');
    const paths = Array.from({ length: 5 }, (_, i) => `/slow?ms=${SLOW_MS}&tag=${tag}&n=${i}`);
    const urls = paths.map((p) => `${site.origin}${p}`);
    const { body } = await api
      .http()
      .post('/v1/scrape/batch/async')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ urls, render: 'http' })
      .expect(202);
    const job = await waitForJob(api, account.liveKey, body.job_id);
    expect(job).toMatchObject({ status: 'completed', total: 5, completed: 5, failed: 0 });
    const data = await allResults(api, account.liveKey, body.job_id);
    expect(data.map((p) => p.url)).toEqual(urls);
    // Every page exactly once at the site, whichever slot rendered it.
    for (const p of paths) expect(site.hits(p)).toBe(1);
    const served = site
      .requests()
      .filter((r) => r.path.includes(`tag=${tag}`))
      .map((r) => [r.at, r.at + SLOW_MS] as const);
    return Math.max(...served.map(([t]) => served.filter(([from, to]) => from <= t && t < to).length));
  }

  it('spreads a one-chunk batch over the idle slots', async () => {
    expect(await pagesAtOnce(128)).toBeGreaterThanOrEqual(3);
  });

  it("splits no further than the plan's pages in flight", async () => {
    expect(await pagesAtOnce(2)).toBe(2);
  });

  // As after a worker kill: the lost run, run again after its stall, beside the copy it handed back.
  // The hold is in Redis: the same in one worker as across two.
  it('renders each page once, and counts one try, when two runs of a chunk meet', async () => {
    const account = await createAccountOnPlan(api, {
      ratePerMinute: 6000,
      monthlyQuota: 1000,
      maxConcurrentPages: 128,
    });
    const tag = randomBytes(4).toString('hex');
    const paths = [0, 1].map((i) => `/slow?ms=${SLOW_MS}&tag=${tag}&n=${i}`);
    const { body } = await api
      .http()
      .post('/v1/scrape/batch/async')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ urls: paths.map((p) => `${site.origin}${p}`), render: 'http' })
      .expect(202);
    const jobId: string = body.job_id;
    // Its first run has started (the job is running): the second starts while its pages are in flight.
    for (;;) {
      const res = await api.http().get(`/v1/jobs/${jobId}`).set('Authorization', `Bearer ${account.liveKey}`);
      if (res.body.status !== 'queued') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await worker.app.get(JobProducer).add('pages', { jobId, fromIdx: 0, toIdx: 2 }, { again: true });
    const job = await waitForJob(api, account.liveKey, jobId);
    expect(job).toMatchObject({ status: 'completed', total: 2, completed: 2, failed: 0 });
    expect(paths.map((p) => site.hits(p))).toEqual([1, 1]);
    const tries = await api.app
      .get(DataSource)
      .query('SELECT attempts FROM job_pages WHERE job_id = ? ORDER BY idx', [jobId]);
    expect(tries.map((row: { attempts: number }) => row.attempts)).toEqual([1, 1]);
  });
});
