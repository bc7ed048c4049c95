import { readFileSync, readdirSync } from 'node:fs';
import type { Test } from 'supertest';
import { DataSource } from 'typeorm';
import { Webhook } from 'standardwebhooks';
import { dataSourceOptions, ensureDatabase, runMigrationsLocked } from '@app/persistence';
import { FixtureSite, startFixtureSite } from '../fixtures/site/fixture-site';
import { HttpsReceiver, makeTestCertificate, startHttpsReceiver } from '../fixtures/https';
import { ApiHarness, TestAccount, createAccount, startApi } from '../support/api-harness';
import {
  allResults,
  expectEveryPageOnce,
  finishedPages,
  waitForFinishedPages,
  waitForJob,
} from '../support/jobs';
import { OwnMariaDb, startMariaDbServer } from '../support/mariadb-server';
import { RunningProcess, freePort, startWorkerProcess } from '../support/processes';
import { OwnRedis, startRedisServer } from '../support/redis-server';
import { IsolatedService, WorkerFleet, startIsolatedService } from '../support/worker-fleet';
import {
  dropRenderQueue,
  flushRedis,
  hasReconcilerMarker,
  leftOver,
  reconcilerPassAfterReset,
  runningPages,
  waitForPagesDone,
} from './fault-tools';
import { recordFault } from './report';

/**
 * Faults while jobs run, each on a redis-server (and, for the MySQL restart, a mariadbd) of its
 * own, serially. Every case counts pages or deliveries before and after: nothing lost, nothing
 * doubled. RESILIENCE_LONG=1 runs the 10,000-page version of the worker kills.
 */
const LONG = process.env.RESILIENCE_LONG === '1';
const KILL_BATCH_PAGES = LONG ? 10_000 : 1_500;
const WORKER_KILLS = LONG ? 5 : 3;

describe('faults', () => {
  let site: FixtureSite;
  let redis: OwnRedis;
  let api: ApiHarness;
  let account: TestAccount;
  let workers: WorkerFleet;
  let service: IsolatedService | undefined;

  const authed = (req: Test) => req.set('Authorization', `Bearer ${account.liveKey}`);

  async function submitBatch(urls: string[], extra: object = {}): Promise<string> {
    const res = await authed(api.http().post('/v1/scrape/batch/async'))
      .send({ urls, ...extra })
      .expect(202);
    return res.body.job_id;
  }

  const finished = (id: string) => finishedPages(api, account.liveKey, id);

  /** expectEveryPageOnce, failing with what is left of the job and what its worker said. */
  const everyPageOnce = (id: string, urls: string[], worker: RunningProcess) =>
    expectEveryPageOnce(api, account.liveKey, id, urls).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await leftOver(api.app.get(DataSource), redis.url, id, worker)}`);
    });
  const waitForFinished = (id: string, atLeast: number, timeoutMs?: number) =>
    waitForFinishedPages(api, account.liveKey, id, atLeast, timeoutMs);

  beforeAll(async () => {
    service = await startIsolatedService({ crawlDelaySeconds: null });
    ({ site, redis, api, account, workers } = service);
  });
  afterEach(() => workers?.stopAll());
  afterAll(() => service?.close());

  it(`kill -9 of a worker ${WORKER_KILLS} times at random points of a ${KILL_BATCH_PAGES}-page batch`, async () => {
    const urls = Array.from(
      { length: KILL_BATCH_PAGES },
      (_, i) => `${site.origin}/static/article/${(i % 10_000) + 1}?kill=${i}`,
    );
    const id = await submitBatch(urls);
    // Random points, increasing, spread over the first 80% of the batch.
    const points = Array.from({ length: WORKER_KILLS }, () => Math.random())
      .sort()
      .map((f, k) => Math.max(Math.floor(((k + f) / WORKER_KILLS) * 0.8 * urls.length), 1));
    const killedAt: number[] = [];
    // The pages the last killed worker held finish before the next kill: a page in flight at two
    // kills fails as RENDER_CRASH, as PAGE_MAX_ATTEMPTS (2) means it to (docs/reliability.md).
    const db = api.app.get(DataSource);
    let held: number[] = [];
    for (const point of points) {
      const worker = await workers.start();
      await waitForFinished(id, point, 180_000);
      await waitForPagesDone(db, id, held);
      worker.child.kill('SIGKILL');
      expect(await worker.exited).toBe('SIGKILL');
      killedAt.push(await finished(id));
      held = await runningPages(db, id);
    }
    expect(killedAt[killedAt.length - 1]).toBeLessThan(urls.length);
    const last = await workers.start();
    const { rows } = await everyPageOnce(id, urls, last);
    recordFault({
      fault: `worker kill -9 ×${WORKER_KILLS}`,
      workload: `batch of ${urls.length} pages (render auto)`,
      before: `${urls.length} accepted; finished at each kill: ${killedAt.join(', ')}`,
      after: `${rows.rows} page rows, ${rows.distinct} distinct, ${rows.succeeded} succeeded`,
    });
  }, 900_000);

  it('Chromium killed under load: the pages it held are retried on a fresh browser', async () => {
    const urls = Array.from(
      { length: 60 },
      (_, i) => `${site.origin}/spa/article/${(i % 40) + 1}?crash=${i}`,
    );
    const worker = await workers.start({ RENDER_CONCURRENCY: '2' });
    const id = await submitBatch(urls, { render: 'browser' });
    const killed: number[] = [];
    for (const point of [8, 30]) {
      await waitForFinished(id, point, 180_000);
      // A browser launches on demand, so right after a kill there may be none for a moment.
      let browsers = chromiumProcesses(worker.child.pid!);
      for (const deadline = Date.now() + 30_000; browsers.length === 0;) {
        if (Date.now() > deadline)
          throw new Error(`the worker runs no browser while pages are pending (${await finished(id)} done)`);
        await new Promise((r) => setTimeout(r, 100));
        browsers = chromiumProcesses(worker.child.pid!);
      }
      for (const pid of browsers) killQuietly(pid);
      killed.push(browsers.length);
    }
    const { rows, data } = await expectEveryPageOnce(api, account.liveKey, id, urls);
    expect(data.every((p) => p.metadata.engine === 'playwright')).toBe(true);
    recordFault({
      fault: 'Chromium processes SIGKILLed twice',
      workload: `batch of ${urls.length} SPA pages, render browser`,
      before: `${urls.length} accepted; ${killed.join(' + ')} Chromium processes killed`,
      after: `${rows.rows} page rows, ${rows.distinct} distinct, ${rows.succeeded} succeeded`,
    });
  }, 600_000);

  it('Redis restarted empty mid-batch: the reconciler re-enqueues from MySQL', async () => {
    const urls = Array.from({ length: 600 }, (_, i) => `${site.origin}/slow?ms=20&restart=${i}`);
    await workers.start();
    const id = await submitBatch(urls);
    await waitForFinished(id, 100);
    await redis.restart();
    const atRestart = await finished(id);
    const { rows } = await expectEveryPageOnce(api, account.liveKey, id, urls);
    recordFault({
      fault: 'Redis killed and restarted with no data',
      workload: `batch of ${urls.length} pages`,
      before: `${urls.length} accepted; ${atRestart} finished at the restart`,
      after: `${rows.rows} page rows, ${rows.distinct} distinct, ${rows.succeeded} succeeded`,
    });
  }, 600_000);

  it('Redis flushed mid-batch', async () => {
    const urls = Array.from({ length: 600 }, (_, i) => `${site.origin}/slow?ms=20&flush=${i}`);
    // Its warnings and the reconciler's passes go into the failure's message.
    const worker = await workers.start({ LOG_LEVEL: 'info' });
    const id = await submitBatch(urls);
    await waitForFinished(id, 100);
    await flushRedis(redis.url);
    const atFlush = await finished(id);
    const { rows } = await everyPageOnce(id, urls, worker);
    recordFault({
      fault: 'Redis FLUSHALL',
      workload: `batch of ${urls.length} pages`,
      before: `${urls.length} accepted; ${atFlush} finished at the flush`,
      after: `${rows.rows} page rows, ${rows.distinct} distinct, ${rows.succeeded} succeeded`,
    });
  }, 600_000);

  it('work lost again after the pass that follows a flush: the look for jobs with no work queued gives it back', async () => {
    const urls = Array.from({ length: 300 }, (_, i) => `${site.origin}/slow?ms=20&again=${i}`);
    const worker = await workers.start({ LOG_LEVEL: 'info' });
    const id = await submitBatch(urls);
    await waitForFinished(id, 50);
    await flushRedis(redis.url);
    // Once the worker's pass after the reset has given the job its entries back (its log says so),
    // the queue loses them again, as when a run that ends short after that pass takes its chain.
    await reconcilerPassAfterReset(worker);
    const lost = await dropRenderQueue(redis.url);
    const atLoss = await finished(id);
    // RECONCILER_STALL_S (600) is past the wait: only the look for a job's queued work can end it.
    const { rows } = await everyPageOnce(id, urls, worker);
    recordFault({
      fault: "Redis FLUSHALL, then the render queue's keys deleted after the reconciler's pass",
      workload: `batch of ${urls.length} pages`,
      before: `${urls.length} accepted; ${atLoss} finished when ${lost} keys went`,
      after: `${rows.rows} page rows, ${rows.distinct} distinct, ${rows.succeeded} succeeded`,
    });
  }, 600_000);

  it("render queue's entries lost while Redis keeps the rest: the look for a job's queued work gives them back", async () => {
    const urls = Array.from({ length: 300 }, (_, i) => `${site.origin}/slow?ms=20&lost=${i}`);
    // At the defaults: RECONCILER_STALL_S (600) is past the wait.
    const worker = await workers.start();
    const id = await submitBatch(urls);
    await waitForFinished(id, 50);
    const lost = await dropRenderQueue(redis.url);
    expect(await hasReconcilerMarker(redis.url)).toBe(true);
    const atLoss = await finished(id);
    const { rows } = await everyPageOnce(id, urls, worker);
    recordFault({
      fault: "render queue's keys deleted (not the reconciler's marker)",
      workload: `batch of ${urls.length} pages`,
      before: `${urls.length} accepted; ${atLoss} finished when ${lost} keys went`,
      after: `${rows.rows} page rows, ${rows.distinct} distinct, ${rows.succeeded} succeeded`,
    });
  }, 600_000);

  it('webhook receiver down across several retry steps, then back: delivered once, signed', async () => {
    const certificate = makeTestCertificate();
    // Reserve a port for the receiver, then leave it closed: connections are refused.
    const port = await freePort();
    await workers.start({
      NODE_EXTRA_CA_CERTS: certificate.caPath,
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s,30s',
    });
    const hook = `https://127.0.0.1:${port}/webhook`;
    const { body } = await authed(api.http().post('/v1/scrape/async'))
      .send({ url: `${site.origin}/static/article/7`, webhook_url: hook })
      .expect(202);
    const delivery = await waitForDelivery(body.job_id, (d) => d.attempts?.length >= 3);
    let receiver: HttpsReceiver | undefined;
    try {
      receiver = await startHttpsReceiver({ certificate, port, behaviour: 200 });
      const [request] = await receiver.waitForRequests(1, 60_000);
      const done = await waitForDelivery(body.job_id, (d) => d.status === 'succeeded');
      const { secret } = (await authed(api.http().get('/v1/webhooks/secret')).expect(200)).body;
      expect(() =>
        new Webhook(secret).verify(request.body, request.headers as Record<string, string>),
      ).not.toThrow();
      expect(JSON.parse(request.body)).toMatchObject({ job_id: body.job_id, status: 'completed' });
      // One acknowledged try after the refused ones; nothing sent twice.
      await new Promise((r) => setTimeout(r, 2_500));
      expect(receiver.requests).toHaveLength(1);
      const refused = done.attempts.filter((a: { status_code: number | null }) => a.status_code === null);
      expect(refused.length).toBe(done.attempts.length - 1);
      recordFault({
        fault: 'webhook receiver refusing connections',
        workload: '1 scrape job with webhook_url, retry schedule compressed to 1 s steps',
        before: `1 delivery; ${delivery.attempts.length} refused attempts when the receiver came back`,
        after: `status succeeded after ${done.attempts.length} attempts; receiver got ${receiver.requests.length} request`,
      });
    } finally {
      await receiver?.close();
    }
  }, 300_000);

  it('oversized pages fail alone (TOO_LARGE); large results are stored and paged', async () => {
    await workers.start();
    const urls = [
      `${site.origin}/huge?mb=11`,
      `${site.origin}/huge?mb=11&length`,
      `${site.origin}/huge-table?rows=20000`,
      `${site.origin}/static/article/3`,
    ];
    const id = await submitBatch(urls);
    const job = await waitForJob(api, account.liveKey, id, 300_000);
    expect(job).toMatchObject({ status: 'completed', total: 4, completed: 2, failed: 2 });
    const data = await allResults(api, account.liveKey, id);
    expect(data.map((p) => p.error?.code ?? null)).toEqual(['TOO_LARGE', 'TOO_LARGE', null, null]);
    const table = data[2].markdown as string;
    expect(table.split('\n').filter((l) => l.startsWith('|')).length).toBeGreaterThanOrEqual(20_000);
    recordFault({
      fault: 'oversized pages and results',
      workload: '11 MiB pages (chunked, and with Content-Length), a 20,000-row table',
      before: '4 accepted',
      after: `2 TOO_LARGE, 2 succeeded; table result ${(Buffer.byteLength(table) / 1024 / 1024).toFixed(1)} MiB paged back`,
    });
  }, 400_000);

  // The delivery detail as the API answers it; the test reads status and attempts.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function waitForDelivery(jobId: string, done: (d: Record<string, any>) => boolean) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const list = await authed(api.http().get(`/v1/webhooks/deliveries?job_id=${jobId}`)).expect(200);
      const first = list.body.data?.[0];
      if (first) {
        const detail = (await authed(api.http().get(`/v1/webhooks/deliveries/${first.id}`)).expect(200)).body;
        if (done(detail)) return detail;
      }
      if (Date.now() > deadline) throw new Error(`delivery of ${jobId} never reached the expected state`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
});

describe('MySQL restarted mid-batch', () => {
  let site: FixtureSite;
  let redis: OwnRedis;
  let mariadb: OwnMariaDb;
  let api: ApiHarness;
  let worker: RunningProcess | undefined;

  beforeAll(async () => {
    site = await startFixtureSite({ crawlDelaySeconds: null });
    redis = await startRedisServer();
    mariadb = await startMariaDbServer();
    const url = mariadb.url('scraper_resilience');
    await ensureDatabase(url);
    const ds = new DataSource(dataSourceOptions(url, 2));
    await ds.initialize();
    await runMigrationsLocked(ds);
    await ds.destroy();
    api = await startApi({ REDIS_URL: redis.url, DATABASE_URL: url });
  }, 120_000);
  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await worker?.exited;
    await api?.close();
    await mariadb?.stop();
    await redis?.stop();
    await site?.close();
  });

  it('answers 503 while the database is down and finishes the batch once it is back', async () => {
    const account = await createAccount(api, 'enterprise');
    worker = await startWorkerProcess({
      REDIS_URL: redis.url,
      DATABASE_URL: mariadb.url('scraper_resilience'),
    });
    const urls = Array.from({ length: 500 }, (_, i) => `${site.origin}/slow?ms=20&mysql=${i}`);
    const key = `Bearer ${account.liveKey}`;
    const { body } = await api
      .http()
      .post('/v1/scrape/batch/async')
      .set('Authorization', key)
      .send({ urls })
      .expect(202);
    const progress = async () => {
      const res = await api.http().get(`/v1/jobs/${body.job_id}`).set('Authorization', key);
      return res.status === 200 ? res.body.completed + res.body.failed : -1;
    };
    const deadline = Date.now() + 120_000;
    while ((await progress()) < 100) {
      if (Date.now() > deadline) throw new Error('batch made no progress');
      await new Promise((r) => setTimeout(r, 100));
    }
    await mariadb.kill();
    const duringOutage = await api.http().get(`/v1/jobs/${body.job_id}`).set('Authorization', key);
    expect(duringOutage.status).toBe(503);
    expect(duringOutage.body).toMatchObject({ code: 'unavailable' });
    await new Promise((r) => setTimeout(r, 3_000));
    await mariadb.start();

    const { job, rows } = await expectEveryPageOnce(api, account.liveKey, body.job_id, urls);
    recordFault({
      fault: 'MySQL (own mariadbd) SIGKILLed for 3 s, restarted',
      workload: `batch of ${urls.length} pages`,
      before: `${urls.length} accepted; GET /v1/jobs during the outage: ${duringOutage.status}`,
      after: `${rows.rows} page rows, ${rows.distinct} distinct, ${job.completed} completed`,
    });
  }, 600_000);
});

// Debian's /usr/bin/chromium-headless-shell is a shell script running the real binary as its child.
const CHROMIUM = /chrom|headless/i;

/** Chromium processes among `pid`'s descendants, from /proc (the worker's browsers). */
function chromiumProcesses(pid: number): number[] {
  const parentOf = new Map<number, number>();
  const nameOf = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      nameOf.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      parentOf.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const isDescendant = (p: number): boolean => {
    for (let q = parentOf.get(p); q !== undefined && q > 1; q = parentOf.get(q)) if (q === pid) return true;
    return false;
  };
  // Every one of them: killing only the wrapper script would orphan a browser that keeps working.
  return [...nameOf.keys()].filter((p) => isDescendant(p) && CHROMIUM.test(nameOf.get(p)!));
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
