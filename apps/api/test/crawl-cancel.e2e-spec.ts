import { QueueAdapter } from '@app/queues';
import { FixtureSite, startFixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { waitForFinishedPages } from '../../../test/support/jobs';

/**
 * Between two fetches of one host. The crawl is a chain (each page links one deeper), so the next
 * page's job starts as soon as a page is rendered and then waits in place for the host's next slot.
 */
const HOST_DELAY_MS = 1200;

/**
 * A cancel stops a crawl's fetching: once DELETE /v1/jobs/{id} has answered, no page of the crawl
 * is requested from the site, not even by the page job that had already started and was waiting
 * for the host's next slot when the cancel came. The fixture site's access log is the witness.
 */
describe('cancelling a crawl', () => {
  let site: FixtureSite;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;

  beforeAll(async () => {
    site = await startFixtureSite({ crawlDelaySeconds: null });
    api = await startApi();
    worker = await startWorker({ CRAWL_HOST_DELAY_MS: String(HOST_DELAY_MS) });
    account = await createAccount(api, 'pro');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await site?.close();
  });

  it('requests no page after the cancel is acknowledged', async () => {
    const auth = { Authorization: `Bearer ${account.liveKey}` };
    const pageRequests = () => site.requests().filter((r) => r.path.startsWith('/crawl/deep/'));
    site.resetHits();
    const res = await api
      .http()
      .post('/v1/crawl')
      .set(auth)
      .send({
        url: `${site.origin}/crawl/deep/1`,
        include_paths: ['^/crawl/deep/'],
        max_depth: 20,
        ignore_sitemap: true,
      })
      .expect(202);
    const id = res.body.job_id;

    // Mid-way, just after a page was stored: the next page's job has started and waits for its slot.
    await waitForFinishedPages(api, account.liveKey, id, 3);
    const cancel = await api.http().delete(`/v1/jobs/${id}`).set(auth).expect(200);
    const acknowledged = Date.now();
    expect(cancel.body.status).toBe('cancelled');

    // Every page job left runs out: those waiting in place, and those handed back for a later slot.
    const queues = api.app.get(QueueAdapter);
    for (;;) {
      const { waiting, active, delayed } = await queues.counts('crawl');
      if (waiting + active + delayed === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(pageRequests().filter((r) => r.at > acknowledged)).toEqual([]);

    // The crawl had pages left to fetch: the cancel stopped it mid-way.
    const job = await api.http().get(`/v1/jobs/${id}`).set(auth).expect(200);
    expect(job.body.status).toBe('cancelled');
    expect(job.body.completed + job.body.failed).toBeLessThan(job.body.total);
    expect(site.leakedRequests()).toEqual([]);
  }, 120_000);
});
