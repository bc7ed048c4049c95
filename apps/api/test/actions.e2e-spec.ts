import { startFixtureSite, FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ACTION_MARKERS, ACTION_SITE } from '../../../test/fixtures/site/action-pages';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { allResults, waitForJob } from '../../../test/support/jobs';

// Page actions through the API: validation of every field up front, and results in the page result.
describe('page actions', () => {
  let site: FixtureSite;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;
  const post = (path: string, body: unknown) =>
    api
      .http()
      .post(path)
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send(body as object);

  beforeAll(async () => {
    site = await startFixtureSite();
    api = await startApi({
      ACTIONS_MAX_COUNT: '5',
      ACTIONS_MAX_WAIT_MS: '1000',
      ACTIONS_MAX_SCRIPT_BYTES: '100',
    });
    worker = await startWorker();
    account = await createAccount(api, 'pro');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await site?.close();
  });

  it('acts on the page in a browser under render auto and returns what the actions brought back', async () => {
    const res = await post('/v1/scrape', {
      url: `${site.origin}/actions/reveal`,
      actions: [
        { type: 'click', selector: '#more' },
        { type: 'screenshot' },
        { type: 'execute_javascript', script: 'return document.querySelectorAll("#out p").length' },
        { type: 'scrape' },
      ],
    });
    expect(res.body).toMatchObject({ status_code: 200 });
    expect(res.body.error).toBeUndefined();
    expect(res.body.metadata.engine).toBe('playwright');
    expect(res.body.markdown).toContain(`${ACTION_MARKERS.revealed}7`);
    const { screenshots, javascript_returns, scrapes } = res.body.actions;
    expect(screenshots).toHaveLength(1);
    expect(Buffer.from(screenshots[0], 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(javascript_returns).toEqual([{ type: 'number', value: 2 }]);
    expect(scrapes[0].html).toContain(ACTION_MARKERS.trusted);
  });

  it('fails the page with ACTION_FAILED, naming the action, with the screenshots taken so far', async () => {
    const res = await post('/v1/scrape', {
      url: `${site.origin}/actions/throws`,
      engine: 'puppeteer',
      actions: [{ type: 'screenshot' }, { type: 'execute_javascript', script: 'explode()' }],
    }).expect(200);
    expect(res.body.error.code).toBe('ACTION_FAILED');
    expect(res.body.error.message).toMatch(/^actions\[1\] \(execute_javascript\) failed: .*fixtureBoom/);
    expect(res.body.actions.screenshots).toHaveLength(1);
  });

  it('acts on every page of a batch, and the results are stored with the pages', async () => {
    const res = await post('/v1/scrape/batch/async', {
      urls: [`${site.origin}/actions/echo`, `${site.origin}/actions/reveal`],
      engine: 'puppeteer',
      actions: [
        { type: 'execute_javascript', script: 'return document.title' },
        { type: 'wait', milliseconds: 10 },
      ],
    }).expect(202);
    const job = await waitForJob(api, account.liveKey, res.body.job_id);
    expect(job).toMatchObject({ status: 'completed', completed: 2, failed: 0 });
    const pages = await allResults(api, account.liveKey, res.body.job_id);
    expect(pages.map((p) => p.actions.javascript_returns)).toEqual([
      [{ type: 'string', value: 'Echo page' }],
      [{ type: 'string', value: 'Reveal page' }],
    ]);
  });

  it('acts on every page of a crawl, which follows the links the actions revealed', async () => {
    const res = await post('/v1/crawl', {
      url: `${site.origin}/actions/site/`,
      ignore_sitemap: true,
      formats: ['markdown', 'links'],
      actions: [
        { type: 'click', selector: '#show' },
        { type: 'execute_javascript', script: 'return location.pathname' },
        { type: 'screenshot' },
      ],
    }).expect(202);
    const job = await waitForJob(api, account.liveKey, res.body.job_id, 120_000);
    const pages = await allResults(api, account.liveKey, res.body.job_id);
    const paths = Object.keys(ACTION_SITE);
    expect(job).toMatchObject({ status: 'completed', total: paths.length, failed: 0 });
    expect(pages.map((p) => p.url.slice(site.origin.length)).sort()).toEqual([...paths].sort());
    for (const page of pages) {
      const path = page.url.slice(site.origin.length);
      expect(page.error).toBeUndefined();
      expect(page.metadata.engine).toBe('playwright');
      expect(page.markdown).toContain(ACTION_MARKERS.siteRevealed(path));
      expect(page.links).toEqual(ACTION_SITE[path].map((p) => site.origin + p));
      expect(page.actions.javascript_returns).toEqual([{ type: 'string', value: path }]);
      expect(page.actions.screenshots).toHaveLength(1);
      expect(Buffer.from(page.actions.screenshots[0], 'base64').subarray(1, 4).toString()).toBe('PNG');
    }
  });

  const url = 'http://127.0.0.1/';
  const one = (action: unknown) => ({ url, actions: [action] });
  it('says what a wait action takes', async () => {
    const res = await post('/v1/scrape', one({ type: 'wait' })).expect(400);
    expect(res.body.errors).toEqual([
      { field: 'actions[0].selector', message: 'a wait action takes milliseconds or selector' },
    ]);
  });

  it.each([
    [{ url, actions: 'click' }, 'actions'],
    [{ url, actions: ['click'] }, 'actions'],
    [{ url, render: 'http', actions: [{ type: 'scrape' }] }, 'actions'],
    [{ url, actions: Array.from({ length: 6 }, () => ({ type: 'scrape' })) }, 'actions'],
    [
      {
        url,
        actions: [
          { type: 'wait', milliseconds: 600 },
          { type: 'wait', milliseconds: 600 },
        ],
      },
      'actions',
    ],
    [one({}), 'actions[0].type'],
    [one({ type: 'dance' }), 'actions[0].type'],
    [one({ type: 'wait' }), 'actions[0].selector'],
    [one({ type: 'wait', milliseconds: -1 }), 'actions[0].milliseconds'],
    [one({ type: 'wait', milliseconds: 'soon' }), 'actions[0].milliseconds'],
    [one({ type: 'wait', milliseconds: 10, selector: '#a' }), 'actions[0].milliseconds'],
    [one({ type: 'click' }), 'actions[0].selector'],
    [one({ type: 'click', selector: 'a[' }), 'actions[0].selector'],
    [one({ type: 'click', selector: '' }), 'actions[0].selector'],
    [one({ type: 'click', selector: 'a', all: 'yes' }), 'actions[0].all'],
    [one({ type: 'click', selector: 'a', text: 'x' }), 'actions[0].text'],
    [one({ type: 'write', selector: 'a' }), 'actions[0].text'],
    [one({ type: 'write', text: 'x' }), 'actions[0].selector'],
    [one({ type: 'write', selector: 'a', text: 'x'.repeat(5001) }), 'actions[0].text'],
    [one({ type: 'press' }), 'actions[0].key'],
    [one({ type: 'press', key: 'Hyper' }), 'actions[0].key'],
    [one({ type: 'press', key: 'Enter', selector: 'a' }), 'actions[0].selector'],
    [one({ type: 'scroll', direction: 'left' }), 'actions[0].direction'],
    [one({ type: 'scroll', amount: 0 }), 'actions[0].amount'],
    [one({ type: 'scroll', amount: 'top' }), 'actions[0].amount'],
    [one({ type: 'screenshot', full_page: 1 }), 'actions[0].full_page'],
    [one({ type: 'execute_javascript' }), 'actions[0].script'],
    [one({ type: 'execute_javascript', script: 5 }), 'actions[0].script'],
    [one({ type: 'execute_javascript', script: `return '${'x'.repeat(100)}'` }), 'actions[0].script'],
    [one({ type: 'scrape', extra: 1 }), 'actions[0].extra'],
    [
      { url, actions: [{ type: 'scrape' }, { type: 'scrape' }, { type: 'scrape' }, { type: 'click' }] },
      'actions[3].selector',
    ],
  ])('refuses bad actions with a 400 naming the field (%#)', async (body, field) => {
    for (const path of ['/v1/scrape', '/v1/scrape/async']) {
      const res = await post(path, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it.each([
    ['/v1/scrape/batch/async', { urls: [url], actions: [{ type: 'press', key: 'Hyper' }] }, 'actions[0].key'],
    ['/v1/crawl', { url, actions: [{ type: 'press', key: 'Hyper' }] }, 'actions[0].key'],
    [
      '/v1/scrape/batch/async',
      { urls: [url], actions: [{ type: 'execute_javascript', script: '/'.repeat(101) }] },
      'actions[0].script',
    ],
    ['/v1/crawl', { url, actions: Array.from({ length: 6 }, () => ({ type: 'scrape' })) }, 'actions'],
  ])('refuses bad actions on %s', async (path, body, field) => {
    const res = await post(path, body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});
