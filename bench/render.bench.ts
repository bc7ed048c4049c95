// `npm run bench:render`: the same client-rendered fixture pages (/spa/article/1..N: an empty root
// and a script that fetches the article as JSON after 150 ms) rendered to markdown, one contender at
// a time, on the same Chromium binary and with the same conversion (libs/rendering's buildContent):
//   (a) a bare playwright-core loop: one browser, K contexts (the physical limit here),
//   (b) Crawlee's PlaywrightCrawler at its best maxConcurrency,
//   (c) the service end to end: one async batch (POST /v1/scrape/batch/async, then GET /v1/jobs)
//       through the API, the render queue and a worker.
// Each contender's K is picked by a short trial of each candidate; the service runs at the bare
// loop's best K (RENDER_CONCURRENCY). Each contender warms up on 2K pages right before its
// measured pages in every round: (a) and (b) in their own process, (c) with a batch of its own.
// CPU and peak RSS are of whole process trees, Chromium included: the contender's process for (a)
// and (b); the API, the worker and the bench's own redis-server for (c) (MariaDB is shared with
// others on this machine and left out). They are sampled by a process of their own
// (bench/sampler.ts), off every contender's event loop and the fixture site's, which this process
// serves.
// Then: sequential sync scrapes of one page vs the bare render of that page, and render auto vs
// browser on server-rendered pages (at RENDER_CONCURRENCY 4, and at the bare loop's K).
// Options: --pages N (300), --trial N (60), --k 4,8,16,24 (bare candidates), --crawlee 4,8,16,24
//          (Crawlee's),
//          --flags service|lean (extra Chromium flags of the bare loop; service: none),
//          --read cdp|content (how the bare loop reads the HTML: as the service does, or with
//          Playwright's page.content()),
//          --parts throughput,sync,static (all by default; sync and static alone run the service at
//          the first --k), --rounds N (3: the three contenders take turns N times, each round on
//          pages of its own; the ratios are the medians of the rounds').
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startFixtureSite } from '../test/fixtures/site/fixture-site';
import { quantile, startSamplingElsewhere, type SampleSummary } from './process-tree';
import {
  WARM_UP_FIRST_ID,
  renderedArticle,
  runContender,
  spaUrl,
  type RenderRun,
  type RenderTiming,
} from './render-contenders';
import { startServiceStack, stopProcess, type ServiceStack } from './service-stack';

/** Ids of the measured pages start here; trials use other ids so no cache favours the real run. */
const FIRST_ID = 1;
const TRIAL_FIRST_ID = 5_000;
const SAME_PAGE_ID = 42;
const SAME_PAGE_RUNS = 30;
const STATIC_PAGES = 200;
/**
 * The static comparison runs at this RENDER_CONCURRENCY (as in every earlier run of this bench; a
 * pod ships with 2), and again at the throughput part's K when that differs: there the browser is
 * CPU-bound too, and the ratio is about that of CPU a page.
 */
const STATIC_K = 4;
/**
 * How often the bench polls a batch, as a client would (Firecrawl's SDK polls every 2 s); each
 * GET /v1/jobs costs the API about 3 ms of CPU, counted in (c).
 */
const POLL_MS = 500;

interface Row extends RenderRun {
  name: string;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function contender(
  kind: 'bare' | 'crawlee',
  site: { origin: string },
  args: { ids: string; concurrency: number; flags?: string; read?: string; same?: number },
): Promise<RenderRun> {
  // Its tree is sampled from outside from the moment it says its measured pages start.
  let sampling: Promise<Awaited<ReturnType<typeof startSamplingElsewhere>>> | undefined;
  let summary: SampleSummary | undefined;
  let timing: RenderTiming;
  try {
    timing = await runContender(
      [
        kind,
        '--origin',
        site.origin,
        '--ids',
        args.ids,
        '--concurrency',
        String(args.concurrency),
        '--flags',
        args.flags ?? 'service',
        '--read',
        args.read ?? 'cdp',
        ...(args.same ? ['--same', String(args.same)] : []),
      ],
      (pid) => {
        sampling ??= startSamplingElsewhere([pid]);
      },
    );
  } finally {
    // The sampler stops with its contender, whether that succeeded or not.
    summary = await (await sampling)?.stop();
  }
  if (!summary) throw new Error(`${kind} never said its measured pages started`);
  return { ...timing, ...summary };
}

const rate = (r: RenderRun) => (r.pages - r.failed) / r.seconds;
const cpuMs = (r: RenderRun) => (r.cpuSeconds * 1000) / r.pages;

/** The candidate with the most pages a second in a short trial. */
async function best(
  label: string,
  candidates: number[],
  trial: (k: number) => Promise<RenderRun>,
): Promise<number> {
  let bestK = candidates[0];
  let bestRate = 0;
  for (const k of candidates) {
    const r = await trial(k);
    console.log(
      `  trial ${label} ${k}: ${rate(r).toFixed(2)} pages/s, ${cpuMs(r).toFixed(0)} ms CPU/page, ${r.failed} failed (load ${load()})`,
    );
    if (rate(r) > bestRate) [bestK, bestRate] = [k, rate(r)];
  }
  return bestK;
}

interface ScrapeBody {
  url: string;
  render: 'browser' | 'auto';
}

/** Sync scrapes of `bodies`, `concurrency` at a time, sampling the service's processes. */
async function scrapes(
  stack: ServiceStack,
  bodies: ScrapeBody[],
  concurrency: number,
  check: (body: ScrapeBody, result: Record<string, unknown>) => boolean,
): Promise<RenderRun & { engines: Set<string> }> {
  const latencies: number[] = [];
  const engines = new Set<string>();
  let failed = 0;
  let next = 0;
  const sampling = await startSamplingElsewhere([stack.api.pid!, stack.worker!.pid!, stack.redis!.pid]);
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const t = Date.now();
        const result = await stack
          .call('/v1/scrape', { method: 'POST', token: stack.key, body: JSON.stringify(body) })
          .catch((): Record<string, unknown> => ({}));
        engines.add(String((result.metadata as { engine?: string } | undefined)?.engine));
        if (check(body, result)) latencies.push(Date.now() - t);
        else failed++;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const { cpuSeconds, peakRssMiB, peakPssMiB, processes } = await sampling.stop();
  return {
    pages: bodies.length,
    failed,
    seconds,
    latenciesMs: latencies,
    cpuSeconds,
    peakRssMiB,
    peakPssMiB,
    processes,
    engines,
  };
}

/** Posts one async batch and polls it until it ends. */
async function runBatch(
  stack: ServiceStack,
  urls: string[],
  render: ScrapeBody['render'] = 'browser',
): Promise<{ id: string; job: Record<string, unknown> }> {
  const { job_id: id } = await stack.call('/v1/scrape/batch/async', {
    method: 'POST',
    token: stack.key,
    body: JSON.stringify({ urls, render }),
  });
  let job: Record<string, unknown>;
  do {
    await new Promise((r) => setTimeout(r, POLL_MS));
    job = await stack.call(`/v1/jobs/${id as string}?page_size=1`, { token: stack.key });
  } while (['queued', 'running'].includes(job.status as string));
  return { id: id as string, job };
}

/**
 * One async batch of `urls` (the service's throughput path: the worker pulls pages from the queue
 * itself), from its acceptance to its end (created_at to finished_at), sampling the service's
 * processes from POST to the poll that saw it end. Latency is the worker's
 * own timings.total_ms of each page (the bare loop's and Crawlee's are also per page, in-process).
 */
async function batch(
  stack: ServiceStack,
  urls: string[],
  render: ScrapeBody['render'] = 'browser',
): Promise<RenderRun & { engines: Set<string> }> {
  const sampling = await startSamplingElsewhere([stack.api.pid!, stack.worker!.pid!, stack.redis!.pid]);
  const { id, job } = await runBatch(stack, urls, render);
  // The job's own times (ms precision), so the poll interval does not add to the figure.
  const seconds = (Date.parse(job.finished_at as string) - Date.parse(job.created_at as string)) / 1000;
  const { cpuSeconds, peakRssMiB, peakPssMiB, processes } = await sampling.stop();
  const all = await stack.call(`/v1/jobs/${id}?page_size=1000`, { token: stack.key });
  const pages = (all.result as { data: Record<string, unknown>[] }).data;
  const good = pages.filter(
    (p) =>
      !p.error && renderedArticle(p.markdown as string | undefined, Number(String(p.url).split('/').pop())),
  );
  return {
    pages: urls.length,
    failed: urls.length - good.length,
    seconds,
    latenciesMs: good.map((p) => (p.timings as { total_ms: number }).total_ms),
    cpuSeconds,
    peakRssMiB,
    peakPssMiB,
    processes,
    engines: new Set(pages.map((p) => String((p.metadata as { engine?: string } | undefined)?.engine))),
  };
}

function table(rows: Row[]): string {
  const lines = [
    '| contender | pages/s | CPU ms/page | p50 ms | p95 ms | peak RSS MiB (PSS) | failed |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${rate(r).toFixed(2)} | ${cpuMs(r).toFixed(0)} | ${quantile(r.latenciesMs, 0.5)} | ` +
        `${quantile(r.latenciesMs, 0.95)} | ${r.peakRssMiB.toFixed(0)} (${r.peakPssMiB.toFixed(0)}) | ${r.failed} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '300' },
      trial: { type: 'string', default: '60' },
      k: { type: 'string', default: '4,8,16,24' },
      crawlee: { type: 'string', default: '4,8,16,24' },
      flags: { type: 'string', default: 'service' },
      read: { type: 'string', default: 'cdp' },
      parts: { type: 'string', default: 'throughput,sync,static' },
      rounds: { type: 'string', default: '3' },
    },
  });
  const rounds = Number(values.rounds);
  const pages = Number(values.pages);
  const trialPages = Number(values.trial);
  const list = (s: string) => s.split(',').map(Number);
  const parts = new Set(values.parts.split(','));
  const trialIds = `${TRIAL_FIRST_ID}:${trialPages}`;
  const site = await startFixtureSite({ crawlDelaySeconds: null, trapRefusedAddresses: false });
  console.log(`bench:render, parts ${values.parts}, load average at start ${load()}`);
  try {
    const { flags, read } = values;
    const report: string[] = [''];
    let bareK = list(values.k)[0];
    let crawleeK = 0;
    if (parts.has('throughput')) {
      bareK = await best('bare K', list(values.k), (k) =>
        contender('bare', site, { ids: trialIds, concurrency: k, flags, read }),
      );
      crawleeK = await best('crawlee maxConcurrency', list(values.crawlee), (k) =>
        contender('crawlee', site, { ids: trialIds, concurrency: k }),
      );
    }

    // (c) The service, at the bare loop's K.
    const workerSettings = { WORKER_QUEUES: 'render', HOST_CONCURRENCY: '64' };
    const stack = await startServiceStack({
      worker: { ...workerSettings, RENDER_CONCURRENCY: String(bareK) },
    });
    const spa = (from: number, count: number, same?: number): ScrapeBody[] =>
      Array.from({ length: count }, (_, i) => ({
        url: spaUrl(site.origin, same ?? from + i),
        render: 'browser',
      }));
    const idOf = (url: string) => Number(url.split('/').pop());
    const isArticle = (body: ScrapeBody, result: Record<string, unknown>) =>
      !result.error && renderedArticle(result.markdown as string | undefined, idOf(body.url));
    let sameService: RenderRun | undefined;
    try {
      const warmUp = spa(WARM_UP_FIRST_ID, bareK * 2);
      await scrapes(stack, warmUp, bareK, isArticle);
      if (parts.has('throughput')) {
        // The machine's speed drifts by more than the gaps measured here from one minute to the
        // next, so the contenders take turns, each round on pages of its own.
        const rows: Row[] = [];
        const ratios: { ca: number; cb: number }[] = [];
        for (let round = 1; round <= rounds; round++) {
          const from = FIRST_ID + (round - 1) * pages;
          const ids = `${from}:${pages}`;
          const bare = await contender('bare', site, { ids, concurrency: bareK, flags, read });
          const crawlee = await contender('crawlee', site, { ids, concurrency: crawleeK });
          // As (a) and (b), which warm up on 2K pages in each round's process: the service has sat
          // idle through their runs, with its tabs parked on about:blank (docs/decisions.md, Benchmarks).
          await runBatch(
            stack,
            warmUp.map((body) => body.url),
          );
          const service = await batch(
            stack,
            Array.from({ length: pages }, (_, i) => spaUrl(site.origin, from + i)),
          );
          console.log(`  round ${round} done (load ${load()})`);
          rows.push(
            {
              name: `(a) bare playwright-core, ${bareK} contexts, flags ${flags}, read ${read}, round ${round}`,
              ...bare,
            },
            { name: `(b) Crawlee PlaywrightCrawler, maxConcurrency ${crawleeK}, round ${round}`, ...crawlee },
            { name: `(c) service, one async batch, RENDER_CONCURRENCY ${bareK}, round ${round}`, ...service },
          );
          ratios.push({ ca: rate(service) / rate(bare), cb: rate(service) / rate(crawlee) });
        }
        const median = (xs: number[]) => quantile(xs, 0.5);
        const each = (k: 'ca' | 'cb') => ratios.map((r) => r[k].toFixed(2)).join(', ');
        report.push(
          table(rows),
          '',
          `c/a: median ${median(ratios.map((r) => r.ca)).toFixed(2)} pages/s over ${rounds} rounds (${each('ca')}; target >= 0.9)`,
          `c/b: median ${median(ratios.map((r) => r.cb)).toFixed(2)} pages/s over ${rounds} rounds (${each('cb')}; target >= 1.2)`,
        );
      }
      if (parts.has('sync'))
        sameService = await scrapes(stack, spa(0, SAME_PAGE_RUNS, SAME_PAGE_ID), 1, isArticle);
      if (parts.has('static')) {
        // A batch each, so the figure compares the engines, not one sync request's round trip.
        const statics = (from: number, count: number) =>
          Array.from({ length: count }, (_, i) => `${site.origin}/static/article/${from + i}`);
        let workerK = bareK;
        for (const k of new Set([STATIC_K, bareK])) {
          if (k !== workerK) {
            await stopProcess(stack.worker!);
            await stack.startWorker({ ...workerSettings, RENDER_CONCURRENCY: String(k) });
            workerK = k;
          }
          // The http engine's path warms up first, as the browser's did on the pages above.
          await batch(stack, statics(3_000, 20), 'auto');
          const auto = await batch(stack, statics(2_000, STATIC_PAGES), 'auto');
          const browser = await batch(stack, statics(2_000, STATIC_PAGES), 'browser');
          report.push(
            `static pages (${STATIC_PAGES}, one batch each), RENDER_CONCURRENCY ${k}: render auto ${rate(auto).toFixed(2)} pages/s ` +
              `(${cpuMs(auto).toFixed(0)} ms CPU/page, engines ${[...auto.engines].join(',')}), ` +
              `browser ${rate(browser).toFixed(2)} pages/s (${cpuMs(browser).toFixed(0)} ms CPU/page): ` +
              `${(rate(auto) / rate(browser)).toFixed(1)}x${k === STATIC_K ? ' (target >= 10x)' : ''}`,
          );
        }
      }
    } finally {
      await stack.stop();
    }
    if (sameService) {
      const sameBare = await contender('bare', site, {
        ids: `0:${SAME_PAGE_RUNS}`,
        same: SAME_PAGE_ID,
        concurrency: 1,
        flags,
        read,
      });
      const p50 = (r: RenderRun) => quantile(r.latenciesMs, 0.5);
      report.push(
        `one page (/spa/article/${SAME_PAGE_ID}), ${SAME_PAGE_RUNS} times one at a time: sync scrape p50 ${p50(sameService)} ms, ` +
          `bare render p50 ${p50(sameBare)} ms: +${p50(sameService) - p50(sameBare)} ms (target <= +50)`,
      );
    }
    report.push(`load average at end ${load()}`);
    console.log(report.join('\n'));
  } finally {
    await site.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
