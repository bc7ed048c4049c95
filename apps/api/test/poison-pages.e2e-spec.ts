import type { Test } from 'supertest';
import { HttpsReceiver, makeTestCertificate, startHttpsReceiver } from '../../../test/fixtures/https';
import { waitForJob } from '../../../test/support/jobs';
import { PoisonSite, startPoisonSite } from '../../../test/support/poison-site';
import type { RunningProcess } from '../../../test/support/processes';
import { IsolatedService, startIsolatedService } from '../../../test/support/worker-fleet';

/** PAGE_MAX_ATTEMPTS's default. */
const MAX_TRIES = 2;

/**
 * Pages that take down the worker process rendering them (here: the site SIGKILLs whichever worker
 * fetches them, as a crash or an out-of-memory would), with real worker processes on a Redis of
 * their own, two alive at any time (a killed one is replaced). Each page is tried at most
 * PAGE_MAX_ATTEMPTS times in all, then fails as RENDER_CRASH: the async job ends and its webhook
 * fires; the sync scrape answers 200 with the page's error, not 504.
 */
describe('poison pages', () => {
  const certificate = makeTestCertificate();
  let service: IsolatedService;
  let poison: PoisonSite;
  let receiver: HttpsReceiver;
  const alive = new Map<number, RunningProcess>();
  const starting: Promise<unknown>[] = [];

  const authed = (req: Test) => req.set('Authorization', `Bearer ${service.account.liveKey}`);

  async function startWorker(): Promise<void> {
    const worker = await service.workers.start({ NODE_EXTRA_CA_CERTS: certificate.caPath });
    alive.set(worker.child.pid!, worker);
  }

  beforeAll(async () => {
    service = await startIsolatedService({ crawlDelaySeconds: null });
    poison = await startPoisonSite(
      () => [...alive.keys()],
      (pid) => {
        alive.delete(pid);
        const replacement = startWorker();
        // Awaited in afterAll; a start that fails is seen there, not as an unhandled rejection.
        replacement.catch(() => undefined);
        starting.push(replacement);
      },
    );
    receiver = await startHttpsReceiver({ certificate });
    await Promise.all([startWorker(), startWorker()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled(starting);
    await receiver?.close();
    await poison?.close();
    await service?.close();
  });

  it('is tried at most PAGE_MAX_ATTEMPTS times across workers, then fails as RENDER_CRASH (async and sync)', async () => {
    const [asyncPath, syncPath] = ['/poison/async', '/poison/sync'];
    const { api } = service;
    const started = Date.now();
    const accepted = await authed(api.http().post('/v1/scrape/async'))
      .send({ url: poison.origin + asyncPath, render: 'browser', webhook_url: receiver.url })
      .expect(202);
    const sync = await authed(api.http().post('/v1/scrape')).send({
      url: poison.origin + syncPath,
      render: 'http',
    });
    const syncMs = Date.now() - started;

    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({
      url: poison.origin + syncPath,
      error: { code: 'RENDER_CRASH', message: expect.stringMatching(/tried 2 times/) },
    });
    expect(Object.keys(sync.body.error)).toEqual(['code', 'message']);
    expect(syncMs).toBeLessThan(90_000);

    const jobId = accepted.body.job_id;
    const job = await waitForJob(api, service.account.liveKey, jobId, 120_000);
    expect(job).toMatchObject({ status: 'failed', total: 1, completed: 0, failed: 1 });
    expect(job.result.error.code).toBe('RENDER_CRASH');
    // The cluster goes on: the next normal page renders soon after the poison pages' results.
    const ended = Date.now();
    const next = await authed(api.http().post('/v1/scrape'))
      .send({ url: `${service.site.origin}/static/article/1` })
      .expect(200);
    const nextMs = Date.now() - ended;
    expect(next.body).toMatchObject({ status_code: 200, markdown: expect.stringMatching(/^# /) });
    expect(next.body.error).toBeUndefined();
    expect(nextMs).toBeLessThan(20_000);
    const [hook] = await receiver.waitForRequests(1, 60_000);
    expect(JSON.parse(hook.body)).toMatchObject({
      job_id: jobId,
      result: { error: { code: 'RENDER_CRASH' } },
    });

    // A worker lost to the other page may have held this one too: at least one try each, at most the limit.
    for (const path of [asyncPath, syncPath]) {
      expect(poison.hits(path)).toBeGreaterThanOrEqual(1);
      expect(poison.hits(path)).toBeLessThanOrEqual(MAX_TRIES);
    }
    expect(poison.killed.length).toBeLessThanOrEqual(2 * MAX_TRIES);
    console.log(
      `poison pages: sync answered in ${syncMs} ms; fetches async ${poison.hits(asyncPath)}, sync ${poison.hits(syncPath)}; workers killed ${poison.killed.length}; next page ${nextMs} ms`,
    );
  }, 240_000);
});
