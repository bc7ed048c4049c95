import { Webhook } from 'standardwebhooks';
import { HttpsReceiver, makeTestCertificate, startHttpsReceiver } from '../../../test/fixtures/https';
import { FixtureSite, startFixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { waitForJob } from '../../../test/support/jobs';

/**
 * Webhooks of real jobs, end to end: the API accepts a job with webhook_url, the worker renders the
 * fixture site, ends the job and delivers to an HTTPS receiver on loopback, which verifies the
 * signature with `standardwebhooks` as a customer would.
 */
describe('webhooks of real jobs', () => {
  const certificate = makeTestCertificate();
  let site: FixtureSite;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;
  let receiver: HttpsReceiver;
  const post = (path: string, body: object) =>
    api.http().post(path).set('Authorization', `Bearer ${account.liveKey}`).send(body).expect(202);

  async function verified(jobId: string) {
    const [req] = await receiver.waitForRequests(1, 60_000);
    const secret = (
      await api
        .http()
        .get('/v1/webhooks/secret')
        .set('Authorization', `Bearer ${account.liveKey}`)
        .expect(200)
    ).body.secret;
    const body = new Webhook(secret).verify(req.rawBody.toString(), req.headers as Record<string, string>);
    expect(req.headers['x-service-job-id']).toBe(jobId);
    const job = await waitForJob(api, account.liveKey, jobId);
    return { body: body as Record<string, unknown>, job };
  }

  beforeAll(async () => {
    site = await startFixtureSite({ crawlDelaySeconds: null });
    api = await startApi();
    worker = await startWorker({ NODE_EXTRA_CA_CERTS: certificate.caPath });
    account = await createAccount(api, 'pro');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await site?.close();
  });
  beforeEach(async () => {
    receiver = await startHttpsReceiver({ certificate });
  });
  afterEach(() => receiver.close());

  it('an async scrape sends its page result once the page is rendered', async () => {
    const url = `${site.origin}/static/article/1`;
    const { job_id } = (await post('/v1/scrape/async', { url, webhook_url: receiver.url })).body;
    const { body, job } = await verified(job_id);
    expect(body).toEqual({ job_id, status: 'completed', result: job.result });
    expect(job.result).toMatchObject({ url, status_code: 200, markdown: expect.stringMatching(/^# /) });
    expect(receiver.requests).toHaveLength(1);
  });

  it("an async scrape with page actions sends what they brought back with the page's result", async () => {
    const url = `${site.origin}/actions/reveal`;
    const actions = [
      { type: 'click', selector: '#more' },
      { type: 'screenshot' },
      { type: 'execute_javascript', script: 'return document.querySelectorAll("#out p").length' },
    ];
    const { job_id } = (await post('/v1/scrape/async', { url, actions, webhook_url: receiver.url })).body;
    const { body, job } = await verified(job_id);
    expect(body).toEqual({ job_id, status: 'completed', result: job.result });
    const { screenshots, javascript_returns } = (body.result as { actions: Record<string, unknown[]> })
      .actions;
    expect(Buffer.from(String(screenshots[0]), 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(javascript_returns).toEqual([{ type: 'number', value: 2 }]);
  });

  it('a batch sends {data, next} with its counters, failed pages included', async () => {
    const urls = [
      `${site.origin}/static/article/2`,
      `${site.origin}/status/404`,
      `${site.origin}/static/article/3`,
    ];
    const { job_id } = (
      await post('/v1/scrape/batch/async', { urls, format: 'markdown', webhook_url: receiver.url })
    ).body;
    const { body, job } = await verified(job_id);
    expect(body).toEqual({
      job_id,
      status: 'completed',
      result: job.result,
      total: 3,
      completed: 2,
      failed: 1,
    });
    expect((body.result as { data: { url: string }[] }).data.map((p) => p.url)).toEqual(urls);
  });

  it('a crawl sends its pages in discovery order with its counters', async () => {
    const { job_id } = (
      await post('/v1/crawl', {
        url: `${site.origin}/crawl/`,
        limit: 3,
        ignore_sitemap: true,
        webhook_url: receiver.url,
      })
    ).body;
    const { body, job } = await verified(job_id);
    expect(body).toEqual({
      job_id,
      status: 'completed',
      result: job.result,
      total: job.total,
      completed: job.completed,
      failed: job.failed,
    });
    expect((body.result as { data: { url: string }[] }).data[0].url).toBe(`${site.origin}/crawl/`);
  });

  it('a scrape of a failing page sends status failed and the page error', async () => {
    const { job_id } = (
      await post('/v1/scrape/async', { url: `${site.origin}/status/500`, webhook_url: receiver.url })
    ).body;
    const { body } = await verified(job_id);
    expect(body).toMatchObject({
      job_id,
      status: 'failed',
      result: { status_code: 500, error: { code: 'HTTP_5XX' } },
    });
  });
});
