import { DataSource } from 'typeorm';
import { processRssMiB, sample } from '../../bench/process-tree';
import { FixtureSite, startFixtureSite } from '../fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccountOnPlan, startApi } from '../support/api-harness';
import { waitForJob } from '../support/jobs';
import { RunningProcess, freePort, runCompiled, startWorkerProcess, waitForHttp } from '../support/processes';
import { recordLoad } from './report';

/**
 * Sustained load. The default is short enough for CI and asserts what a short run can: no error
 * and no request lost. RESILIENCE_LONG=1 runs the figures the docs quote (five minutes of API load,
 * a 10,000-page batch) and asserts memory stays flat.
 */
const LONG = process.env.RESILIENCE_LONG === '1';
const LOAD_SECONDS = LONG ? 300 : 20;
const LEAK_PAGES = LONG ? 10_000 : 1_200;
const CONNECTIONS = 16;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((x, y) => x - y),
    0.5,
  );

/**
 * The worker's JavaScript memory (V8 heap in use plus the external memory its objects hold) and
 * V8's committed heap, from its /metrics.
 */
async function heapMiB(port: number): Promise<{ jsMemory: number; heapTotal: number }> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1]);
  return {
    jsMemory: (value('nodejs_heap_size_used_bytes') + value('nodejs_external_memory_bytes')) / 2 ** 20,
    heapTotal: value('nodejs_heap_size_total_bytes') / 2 ** 20,
  };
}

describe('load', () => {
  let site: FixtureSite;
  let admin: ApiHarness;
  let account: TestAccount;
  const procs: RunningProcess[] = [];

  beforeAll(async () => {
    site = await startFixtureSite({ crawlDelaySeconds: null });
    admin = await startApi();
    // A plan that never throttles the load and holds its quota, as the API bench's does.
    account = await createAccountOnPlan(admin, {
      ratePerMinute: 10_000_000,
      monthlyQuota: 100_000_000,
      maxConcurrentPages: 8,
    });
  });
  afterAll(async () => {
    for (const p of procs) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
    await admin?.close();
    await site?.close();
  });

  it(`the API under ${LOAD_SECONDS} s of job creation and polling while a worker renders`, async () => {
    const port = await freePort();
    const api = runCompiled('apps/api/src/main.js', {
      ...process.env,
      LOG_LEVEL: 'warn',
      PORT: String(port),
    });
    procs.push(api);
    await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    procs.push(await startWorkerProcess({}));
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${account.liveKey}`, 'content-type': 'application/json' };

    const latencies: number[] = [];
    const failures: string[] = [];
    const jobIds: string[] = [];
    const rss: number[] = [];
    const sampler = setInterval(() => rss.push(sample(api.child.pid!).rssMiB), 1_000);
    const end = Date.now() + LOAD_SECONDS * 1_000;
    const timed = async (what: string, run: () => Promise<Response>, expected: number) => {
      const started = performance.now();
      try {
        const res = await run();
        const body = await res.json();
        latencies.push(performance.now() - started);
        if (res.status !== expected)
          failures.push(`${what}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
        return body;
      } catch (err) {
        failures.push(`${what}: ${(err as Error).message}`);
        return null;
      }
    };
    let n = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < end) {
          const i = n++;
          const created = await timed(
            'create',
            () =>
              fetch(`${base}/v1/scrape/async`, {
                method: 'POST',
                headers,
                body: JSON.stringify({ url: `${site.origin}/static/article/${(i % 10_000) + 1}?load=${i}` }),
              }),
            202,
          );
          if (!created?.job_id) continue;
          jobIds.push(created.job_id);
          // Poll a job made a while ago, as a client would.
          const old = jobIds[Math.floor(Math.random() * jobIds.length)];
          await timed('poll', () => fetch(`${base}/v1/jobs/${old}`, { headers }), 200);
        }
      }),
    );
    clearInterval(sampler);

    const sorted = [...latencies].sort((x, y) => x - y);
    const seconds = LOAD_SECONDS;
    const warm = rss.slice(Math.floor(rss.length / 4), Math.floor(rss.length / 2));
    const late = rss.slice(Math.floor((rss.length * 3) / 4));
    recordLoad({
      what: `API, ${CONNECTIONS} clients creating scrape jobs and polling for ${seconds} s, one worker rendering`,
      figures:
        `${latencies.length} requests (${(latencies.length / seconds).toFixed(0)}/s), ${failures.length} errors; ` +
        `p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms; ` +
        `API RSS ${median(warm).toFixed(0)} MiB after warm-up, ${median(late).toFixed(0)} MiB in the last quarter, peak ${Math.max(...rss).toFixed(0)} MiB`,
    });
    expect(failures.slice(0, 5)).toEqual([]);
    expect(jobIds.length).toBeGreaterThan(100);
    if (LONG) expect(median(late)).toBeLessThan(median(warm) * 1.1);

    // Nothing created under load is lost: every job is in MySQL and ends.
    const [row] = await admin.app
      .get(DataSource)
      .query('SELECT COUNT(*) AS n FROM jobs WHERE account_id = ?', [account.id]);
    expect(Number(row.n)).toBeGreaterThanOrEqual(jobIds.length);
    // The worker renders far fewer jobs a second than the API accepts: allow 10 a second to drain.
    const drainMs = Math.max(600_000, jobIds.length * 100);
    const last = await waitForJob(admin, account.liveKey, jobIds[jobIds.length - 1], drainMs);
    expect(last.status).toBe('completed');
  }, 14_400_000);

  it(`a worker rendering ${LEAK_PAGES} pages keeps its memory level over its second half`, async () => {
    const worker = await startWorkerProcess({});
    procs.push(worker);
    // One in twenty pages needs the browser (render auto picks it for the client-rendered ones).
    const urls = Array.from({ length: LEAK_PAGES }, (_, i) =>
      i % 20 === 0
        ? `${site.origin}/spa/article/${(i % 40) + 1}?leak=${i}`
        : `${site.origin}/static/article/${(i % 10_000) + 1}?leak=${i}`,
    );
    const { body } = await admin
      .http()
      .post('/v1/scrape/batch/async')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ urls })
      .expect(202);
    // The worker's own heap and the browsers it drives are measured apart: Chromium's renderers come
    // and go with the pages in flight (one in twenty here), so a sum of their RSS at one instant
    // swings by a renderer or two, while a leak of ours shows in the node process alone.
    const points: { done: number; nodeRss: number; treePss: number; jsMemory: number; heapTotal: number }[] =
      [];
    for (;;) {
      const res = await admin
        .http()
        .get(`/v1/jobs/${body.job_id}`)
        .set('Authorization', `Bearer ${account.liveKey}`);
      points.push({
        done: res.body.completed + res.body.failed,
        nodeRss: processRssMiB(worker.child.pid!),
        treePss: sample(worker.child.pid!).pssMiB,
        ...(await heapMiB(worker.port)),
      });
      if (!['queued', 'running'].includes(res.body.status)) {
        expect(res.body).toMatchObject({ status: 'completed', total: LEAK_PAGES, failed: 0 });
        break;
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const between = (from: number, to: number) => points.filter((p) => p.done >= from && p.done < to);
    const after1000 = between(1_000, 1_500);
    // V8 sizes its heap over the first few thousand pages (measured: about 220 MiB committed at
    // 1,000, 410-460 from 4,000 on, while the JS in use stays at 125-175): the level is that of the
    // run's middle tenth, and a leak of about 11 KiB a page or more still goes over 10% by the end.
    const middleTenth = between(LEAK_PAGES * 0.5, LEAK_PAGES * 0.6);
    const lastTenth = between(LEAK_PAGES * 0.9, Infinity);
    type Key = 'nodeRss' | 'treePss' | 'jsMemory' | 'heapTotal';
    // JavaScript memory saws between collections: its low decile is about what survives them.
    const level = (ps: typeof points, key: Key) =>
      percentile(
        ps.map((p) => p[key]).sort((x, y) => x - y),
        key === 'jsMemory' ? 0.1 : 0.5,
      );
    const curve = (key: Key) =>
      Array.from({ length: Math.floor(LEAK_PAGES / 1_000) }, (_, i) => between(i * 1_000, (i + 1) * 1_000))
        .filter((ps) => ps.length > 0)
        .map((ps) => level(ps, key).toFixed(0))
        .join(', ');
    recordLoad({
      what: `worker rendering a ${LEAK_PAGES}-page batch (render auto; 1 in 20 needs the browser)`,
      figures:
        `worker node RSS ${level(after1000, 'nodeRss').toFixed(0)} MiB at 1,000-1,500 pages, ` +
        `${level(middleTenth, 'nodeRss').toFixed(0)} over the middle tenth, ` +
        `${level(lastTenth, 'nodeRss').toFixed(0)} MiB over the last tenth (per 1,000 pages: ${curve('nodeRss')}); ` +
        `its JS heap + external ${level(after1000, 'jsMemory').toFixed(0)} and ${level(lastTenth, 'jsMemory').toFixed(0)} MiB ` +
        `(per 1,000 pages: ${curve('jsMemory')}; heap total ${curve('heapTotal')}); ` +
        `worker + Chromium PSS ${level(after1000, 'treePss').toFixed(0)}, ${level(middleTenth, 'treePss').toFixed(0)} ` +
        `and ${level(lastTenth, 'treePss').toFixed(0)} MiB, ` +
        `peak ${Math.max(...points.map((p) => p.treePss)).toFixed(0)} MiB`,
    });
    expect(after1000.length).toBeGreaterThan(0);
    if (LONG) {
      expect(middleTenth.length).toBeGreaterThan(0);
      expect(level(lastTenth, 'nodeRss')).toBeLessThan(level(middleTenth, 'nodeRss') * 1.1);
      expect(level(lastTenth, 'treePss')).toBeLessThan(level(middleTenth, 'treePss') * 1.1);
    }
  }, 3_600_000);
});
