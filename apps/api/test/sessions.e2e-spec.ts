import { startFixtureSite, FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { SESSION_MARKERS } from '../../../test/fixtures/site/session-pages';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { RunningProcess, startWorkerProcess } from '../../../test/support/processes';
import { allResults, waitForJob } from '../../../test/support/jobs';

/**
 * Sessions through the API and worker processes (from dist: npm test builds first): a cookie and
 * localStorage carried from one request to the next by whichever worker serves it, kept per
 * account, environment and id, the cap's 409, forgetting, and a batch's pages one at a time.
 */
describe('sessions', () => {
  let site: FixtureSite;
  let api: ApiHarness;
  let account: TestAccount;
  let worker: RunningProcess | undefined;

  const startOneWorker = async () => {
    // Pages at once, so a batch's pages would overlap but for the session.
    worker = await startWorkerProcess({ WORKER_QUEUES: 'render,crawl', RENDER_CONCURRENCY: '4' });
  };
  const stopWorker = async () => {
    worker?.child.kill('SIGTERM');
    await worker?.exited;
    worker = undefined;
  };
  const post = (path: string, body: object, key = account.liveKey) =>
    api.http().post(path).set('Authorization', `Bearer ${key}`).send(body);
  const shown = async (body: object, key?: string) => {
    const res = await post('/v1/scrape', { url: `${site.origin}/session/show`, ...body }, key).expect(200);
    const markdown = String(res.body.markdown);
    return {
      engine: res.body.metadata.engine as string,
      cookies: new RegExp(`${SESSION_MARKERS.cookies}(.*)`).exec(markdown)?.[1].trim().split('; ').sort(),
      storage: new RegExp(`${SESSION_MARKERS.storage}(\\S*)`).exec(markdown)?.[1],
    };
  };

  beforeAll(async () => {
    site = await startFixtureSite();
    api = await startApi({ SESSIONS_MAX_BY_PLAN: 'starter=3' });
    account = await createAccount(api, 'pro');
    await startOneWorker();
  }, 60_000);
  afterAll(async () => {
    await stopWorker();
    await api?.close();
    await site?.close();
  });

  it('refuses a session_id of the wrong form, naming the field', async () => {
    for (const session_id of ['', 'a b', 'x'.repeat(129), 'é', 42]) {
      const res = await post('/v1/scrape', { url: `${site.origin}/session/show`, session_id }).expect(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['session_id']);
    }
  });

  it('carries cookies and storage to the next request, served by another worker process', async () => {
    const set = await post('/v1/scrape', {
      url: `${site.origin}/session/set?v=w1`,
      session_id: 'cross',
    }).expect(200);
    expect(set.body.error).toBeUndefined();
    // The first worker goes; a new one serves the session's next request.
    await stopWorker();
    await startOneWorker();
    const seen = await shown({ session_id: 'cross' });
    expect(seen).toEqual({ engine: 'playwright', cookies: ['js=w1', 'keep=w1', 'sid=w1'], storage: 'w1' });
  }, 60_000);

  it('shows nothing of a session to another id, no id, the other environment or another account', async () => {
    await post('/v1/scrape', { url: `${site.origin}/session/set?v=iso`, session_id: 'iso' }).expect(200);
    const other = await createAccount(api, 'pro');
    const nothing = { cookies: ['none'], storage: 'null' };
    expect(await shown({ session_id: 'iso-2', engine: 'puppeteer' })).toMatchObject(nothing);
    expect(await shown({ render: 'browser' })).toMatchObject(nothing);
    expect(await shown({ session_id: 'iso' }, account.testKey)).toMatchObject(nothing);
    expect(await shown({ session_id: 'iso' }, other.liveKey)).toMatchObject(nothing);
    // The session itself still has it, through the other browser engine too.
    expect(await shown({ session_id: 'iso', engine: 'puppeteer' })).toMatchObject({ storage: 'iso' });
  });

  it("lists the caller's sessions, forgets one, and refuses a new one past the plan's cap", async () => {
    const mine = await createAccount(api, 'starter');
    const started: string[] = [];
    for (const id of ['c1', 'c2', 'c3']) {
      const res = await post(
        '/v1/scrape/async',
        { url: `${site.origin}/session/set?v=${id}`, session_id: id },
        mine.liveKey,
      ).expect(202);
      started.push(res.body.job_id);
    }
    // Ended before any is deleted: a page still to run re-creates its session (docs/api.md, Sessions).
    for (const id of started) await waitForJob(api, mine.liveKey, id);
    const full = await post(
      '/v1/scrape',
      { url: `${site.origin}/session/show`, session_id: 'c4' },
      mine.liveKey,
    ).expect(409);
    expect(full.body).toMatchObject({ code: 'conflict' });
    expect(full.body.detail).toMatch(/^session_id: .*3 live sessions/);
    // A session already live is not new; the sandbox counts its own.
    await post(
      '/v1/crawl',
      { url: `${site.origin}/session/show`, session_id: 'c1', limit: 1 },
      mine.liveKey,
    ).expect(202);
    await post(
      '/v1/scrape/batch/async',
      { urls: [`${site.origin}/session/show`], session_id: 'c4' },
      mine.testKey,
    ).expect(202);

    const list = await api
      .http()
      .get('/v1/sessions')
      .set('Authorization', `Bearer ${mine.liveKey}`)
      .expect(200);
    expect(list.body.data.map((s: { id: string }) => s.id).sort()).toEqual(['c1', 'c2', 'c3']);
    expect(Object.keys(list.body.data[0]).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at']);
    const del = (id: string, key = mine.liveKey) =>
      api.http().delete(`/v1/sessions/${id}`).set('Authorization', `Bearer ${key}`);
    await del('c2').expect(204);
    await del('c2').expect(404);
    await del('c1', account.liveKey).expect(404);
    await post('/v1/scrape', { url: `${site.origin}/session/show`, session_id: 'c5' }, mine.liveKey).expect(
      200,
    );
    // The longest id is forgotten by its path too.
    const longest = 'L'.repeat(128);
    await post('/v1/scrape/async', { url: `${site.origin}/session/show`, session_id: longest }).expect(202);
    await del(longest, account.liveKey).expect(204);
    await del(`${longest}x`, account.liveKey).expect(400);
  });

  it("renders a crawl's pages with the session", async () => {
    await post('/v1/scrape', { url: `${site.origin}/session/set?v=crawl`, session_id: 'crawl' }).expect(200);
    const res = await post('/v1/crawl', {
      url: `${site.origin}/session/show`,
      session_id: 'crawl',
      limit: 1,
      ignore_sitemap: true,
    }).expect(202);
    expect(await waitForJob(api, account.liveKey, res.body.job_id)).toMatchObject({ status: 'completed' });
    const [page] = await allResults(api, account.liveKey, res.body.job_id);
    expect(page.markdown).toContain(`${SESSION_MARKERS.storage}crawl`);
    expect(page.markdown).toContain('sid=crawl');
  });

  it('forgets a deleted session: its next request starts empty', async () => {
    await post('/v1/scrape', { url: `${site.origin}/session/set?v=del`, session_id: 'del' }).expect(200);
    await api.http().delete('/v1/sessions/del').set('Authorization', `Bearer ${account.liveKey}`).expect(204);
    expect(await shown({ session_id: 'del' })).toMatchObject({ cookies: ['none'], storage: 'null' });
  });

  it('answers an Idempotency-Key replay as the first time, without opening its deleted session again', async () => {
    const send = () =>
      api
        .http()
        .post('/v1/scrape/async')
        .set('Authorization', `Bearer ${account.liveKey}`)
        .set('Idempotency-Key', 'replay-once')
        .send({ url: `${site.origin}/session/set?v=replay`, session_id: 'replay' })
        .expect(202);
    const first = await send();
    await waitForJob(api, account.liveKey, first.body.job_id);
    const auth = { Authorization: `Bearer ${account.liveKey}` };
    await api.http().delete('/v1/sessions/replay').set(auth).expect(204);
    expect((await send()).body.job_id).toBe(first.body.job_id);
    const list = await api.http().get('/v1/sessions').set(auth).expect(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).not.toContain('replay');
  });

  it("serves a batch's pages on one session one at a time, and keeps what they left", async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `${site.origin}/session/slow?n=${i}`);
    const res = await post('/v1/scrape/batch/async', {
      urls: [`${site.origin}/session/set?v=batch`, ...urls],
      session_id: 'batch',
      formats: ['markdown'],
    }).expect(202);
    const job = await waitForJob(api, account.liveKey, res.body.job_id, 120_000);
    expect(job).toMatchObject({ status: 'completed', completed: 7, failed: 0 });
    const peak = await fetch(`${site.origin}/session/slow/peak`).then(
      (r) => r.json() as Promise<{ peak: number }>,
    );
    expect(peak.peak).toBe(1);
    const pages = await allResults(api, account.liveKey, res.body.job_id);
    expect(pages.every((p) => p.metadata.engine === 'playwright')).toBe(true);
    expect(await shown({ session_id: 'batch' })).toMatchObject({ storage: 'batch' });
  }, 150_000);
});
