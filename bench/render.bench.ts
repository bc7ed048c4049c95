// `npm run bench:render`: client-rendered fixture pages rendered to markdown, on the same Chromium
// binary (the headless shell) and with the same conversion (libs/rendering's buildContent), by:
//   (a) a bare playwright-core loop: one browser, K contexts, the service's readiness rule,
//   (b) Crawlee's PlaywrightCrawler at its best maxConcurrency (swept),
//   (c) the service exactly as `npm start` runs it (its defaults: no setting of ours tunes it; the
//       egress allowlist opens loopback), one async batch (POST /v1/scrape/batch/async, then GET
//       /v1/jobs) through the API, the render queue and a worker.
// The pages (render-pages.ts): /spa/article/<id>, every third id a late-content /late/article/<id>
// instead, spread over --hosts fixture sites. A page counts when its markdown holds its article;
// late pages that did are reported apart. (a)'s K and (b)'s concurrency are each the best of a
// short trial of each candidate. The three take turns, each round on pages of its own, each
// warming up right before its measured pages: (a) and (b) in their own process, (c) with a batch.
// CPU and peak RSS are of whole process trees, Chromium included: the contender's process for (a)
// and (b); start.js (the API, the worker) and the bench's own redis-server for (c) (MariaDB is
// shared with others on this machine and left out). They are sampled by a process of their own
// (bench/sampler.ts), off every contender's event loop and the fixture sites', which this process
// serves.
// Then: one page's sync scrape 30 times one at a time against the bare render of that page
// (sync), and server-rendered pages with render auto vs browser, one batch each (static).
// Options: --pages N (300), --trial N (60), --k 8,16,24,32 (bare candidates), --crawlee 4,8,16,24
//          (Crawlee's), --hosts N (4 fixture sites), --late-every N (3; 0: no late pages),
//          --flags service|lean (extra Chromium flags of the bare loop; service: none),
//          --read cdp|content (how the bare loop reads the HTML: as the service does, or with
//          Playwright's page.content()), --parts throughput,sync,static (all by default; sync and
//          static alone run the bare loop at the first --k), --rounds N (3; the ratios are the
//          medians of the rounds').
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startFixtureSite, type FixtureSite } from '../test/fixtures/site/fixture-site';
import { quantile, startSamplingElsewhere, type SampleSummary } from './process-tree';
import { runContender, type RenderRun } from './render-contenders';
import { WARM_UP_FIRST_ID, pageUrl, spaUrl, type PageSet, type RenderTiming } from './render-pages';
import { batch, runBatch, scrapes, type ServiceRun } from './render-service';
import { startServiceStack } from './service-stack';

/** Ids of the measured pages start here; trials use other ids so no cache favours the real run. */
const FIRST_ID = 1;
const TRIAL_FIRST_ID = 5_000;
const SAME_PAGE_ID = 42;
const SAME_PAGE_RUNS = 30;
const STATIC_PAGES = 200;
/** The service's warm-up batch before each round's: as (a) and (b) warm up on 2K pages. */
const SERVICE_WARM_UP = 32;

interface Row extends RenderRun {
  name: string;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function contender(
  kind: 'bare' | 'crawlee',
  set: PageSet,
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
        '--origins',
        set.origins.join(','),
        '--late-every',
        String(set.lateEvery),
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
const median = (xs: number[]) => quantile(xs, 0.5);

/** The candidate with the most complete pages a second in a short trial. */
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
      `  trial ${label} ${k}: ${rate(r).toFixed(2)} pages/s, ${cpuMs(r).toFixed(0)} ms CPU/page, ${r.failed} incomplete (load ${load()})`,
    );
    if (rate(r) > bestRate) [bestK, bestRate] = [k, rate(r)];
  }
  return bestK;
}

function table(rows: Row[]): string {
  const lines = [
    '| contender | pages/s | CPU ms/page | late content held | incomplete | p50 ms | p95 ms | peak RSS MiB (PSS) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${rate(r).toFixed(2)} | ${cpuMs(r).toFixed(0)} | ${r.lateHeld}/${r.late} | ${r.failed} | ` +
        `${quantile(r.latenciesMs, 0.5)} | ${quantile(r.latenciesMs, 0.95)} | ${r.peakRssMiB.toFixed(0)} (${r.peakPssMiB.toFixed(0)}) |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '300' },
      trial: { type: 'string', default: '60' },
      k: { type: 'string', default: '8,16,24,32' },
      crawlee: { type: 'string', default: '4,8,16,24' },
      hosts: { type: 'string', default: '4' },
      'late-every': { type: 'string', default: '3' },
      flags: { type: 'string', default: 'service' },
      read: { type: 'string', default: 'cdp' },
      parts: { type: 'string', default: 'throughput,sync,static' },
      rounds: { type: 'string', default: '3' },
    },
  });
  const rounds = Number(values.rounds);
  const pages = Number(values.pages);
  const list = (s: string) => s.split(',').map(Number);
  const parts = new Set(values.parts.split(','));
  const trialIds = `${TRIAL_FIRST_ID}:${values.trial}`;
  const sites: FixtureSite[] = [];
  for (let i = 0; i < Number(values.hosts); i++)
    sites.push(await startFixtureSite({ crawlDelaySeconds: null, trapRefusedAddresses: false }));
  const set: PageSet = { origins: sites.map((s) => s.origin), lateEvery: Number(values['late-every']) };
  const urls = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => pageUrl(set, from + i));
  console.log(
    `bench:render, parts ${values.parts}, ${sites.length} hosts, ${set.lateEvery ? `1 page in ${set.lateEvery} late` : 'no late pages'}, load average at start ${load()}`,
  );
  const { flags, read } = values;
  const report: string[] = [''];
  const stack = await startServiceStack({ npmStart: true });
  try {
    if (parts.has('throughput')) {
      const bareK = await best('bare K', list(values.k), (k) =>
        contender('bare', set, { ids: trialIds, concurrency: k, flags, read }),
      );
      const crawleeK = await best('crawlee maxConcurrency', list(values.crawlee), (k) =>
        contender('crawlee', set, { ids: trialIds, concurrency: k }),
      );
      // The machine's speed drifts by more than the gaps measured here from one minute to the
      // next, so the contenders take turns, each round on pages of its own.
      const rows: Row[] = [];
      const ratios: { ca: number; cb: number }[] = [];
      for (let round = 1; round <= rounds; round++) {
        const from = FIRST_ID + (round - 1) * pages;
        const ids = `${from}:${pages}`;
        const bare = await contender('bare', set, { ids, concurrency: bareK, flags, read });
        const crawlee = await contender('crawlee', set, { ids, concurrency: crawleeK });
        // As (a) and (b), which warm up in each round's process: the service has sat idle through
        // their runs, with its tabs parked on about:blank (docs/decisions.md, Benchmarks).
        await runBatch(stack, urls(WARM_UP_FIRST_ID, SERVICE_WARM_UP));
        const service = await batch(stack, set, urls(from, pages));
        console.log(`  round ${round} done (load ${load()})`);
        rows.push(
          { name: `(a) bare, ${bareK} contexts, round ${round}`, ...bare },
          { name: `(b) Crawlee, maxConcurrency ${crawleeK}, round ${round}`, ...crawlee },
          { name: `(c) service at its defaults, round ${round}`, ...service },
        );
        ratios.push({ ca: rate(service) / rate(bare), cb: rate(service) / rate(crawlee) });
      }
      const each = (k: 'ca' | 'cb') => ratios.map((r) => r[k].toFixed(2)).join(', ');
      report.push(
        table(rows),
        '',
        `c/a median ${median(ratios.map((r) => r.ca)).toFixed(2)} (${each('ca')}; target >= 1.0); ` +
          `c/b median ${median(ratios.map((r) => r.cb)).toFixed(2)} (${each('cb')}; target >= 2.0)`,
      );
    }
    if (parts.has('sync')) {
      // One client-rendered page (no late content), as today's figures were taken on.
      const one: PageSet = { origins: [set.origins[0]], lateEvery: 0 };
      const url = spaUrl(one.origins[0], SAME_PAGE_ID);
      await scrapes(
        stack,
        one,
        Array.from({ length: 4 }, () => ({ url, render: 'browser' as const })),
        1,
      );
      const sync = await scrapes(
        stack,
        one,
        Array.from({ length: SAME_PAGE_RUNS }, () => ({ url, render: 'browser' as const })),
        1,
      );
      const bare = await contender('bare', one, {
        ids: `0:${SAME_PAGE_RUNS}`,
        same: SAME_PAGE_ID,
        concurrency: 1,
        flags,
        read,
      });
      const q = (r: RenderRun, p: number) => quantile(r.latenciesMs, p);
      report.push(
        `sync: ${url.replace(one.origins[0], '')} ${SAME_PAGE_RUNS} times one at a time: sync scrape p50 ${q(sync, 0.5)} ms, ` +
          `p95 ${q(sync, 0.95)} ms (${sync.failed} incomplete); bare render p50 ${q(bare, 0.5)} ms, p95 ${q(bare, 0.95)} ms`,
      );
    }
    if (parts.has('static')) {
      // A batch each, so the figure compares the engines, not one sync request's round trip.
      const statics = (from: number, count: number) =>
        Array.from(
          { length: count },
          (_, i) => `${set.origins[i % set.origins.length]}/static/article/${from + i}`,
        );
      const plain: PageSet = { ...set, lateEvery: 0 };
      // The http engine's path warms up first, on as many pages as it is measured on, as the
      // browser's did on the pages above: the content threads' code runs cold for a hundred pages
      // or so (render-profile --static --k 16 --batches 3: 11.8, 10.2, 9.3 ms a page in turn).
      await runBatch(stack, statics(3_000, STATIC_PAGES), 'auto');
      // Run alone, the browser's path has had no pages yet.
      if (!parts.has('throughput')) await runBatch(stack, statics(4_000, SERVICE_WARM_UP), 'browser');
      const auto: ServiceRun = await batch(stack, plain, statics(2_000, STATIC_PAGES), 'auto');
      const browser = await batch(stack, plain, statics(2_000, STATIC_PAGES), 'browser');
      report.push(
        `static: ${STATIC_PAGES} server-rendered pages, one batch each: render auto ${rate(auto).toFixed(2)} pages/s ` +
          `(${cpuMs(auto).toFixed(0)} ms CPU/page, engines ${[...auto.engines].join(',')}), ` +
          `browser ${rate(browser).toFixed(2)} pages/s (${cpuMs(browser).toFixed(0)} ms CPU/page): ` +
          `${(rate(auto) / rate(browser)).toFixed(1)}x (target >= 10x)`,
      );
    }
    report.push(`load average at end ${load()}`);
    console.log(report.join('\n'));
  } finally {
    await stack.stop();
    await Promise.all(sites.map((s) => s.close()));
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
