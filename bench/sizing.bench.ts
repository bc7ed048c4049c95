// `npm run bench:sizing`: the memory a worker pod needs (docs/benchmarks.md, "Kubernetes sizing";
// docs/deploy.md). For each RENDER_CONCURRENCY given (auto, the default, and fixed levels), a fresh
// API and worker with every other setting at its default; the worker's tree (its Node and its
// Chromium processes) is sampled idle before its first page, while --clients loops send sync
// scrapes (`render: browser`) of the fixture site's pages, and again once it has been idle
// --settle seconds. The API's own process is sampled while it serves them, and `dist/scripts/migrate`
// on an empty database. Sizing reads RSS, the conservative figure (PSS shares Chromium's pages).
// Options: --concurrency LIST (auto,2,4), --clients N (8), --pages N (160 a level), --settle S (10).
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startSamplingElsewhere, type SampleSummary } from './process-tree';
import { startServiceStack, type ServiceStack } from './service-stack';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: 'auto,2,4' },
    clients: { type: 'string', default: '8' },
    pages: { type: 'string', default: '160' },
    settle: { type: 'string', default: '10' },
  },
});
const CLIENTS = Number(values.clients);
const PAGES = Number(values.pages);
const SETTLE_S = Number(values.settle);

/** What the pods render: articles, a client-rendered one, lazy images, history routing, a corpus page, subresources. */
const FIXTURE_PATHS = [
  '/static/article/feature',
  '/spa/article/feature',
  '/lazy/intersection',
  '/history/',
  '/corpus/',
  '/subresources/local',
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (n: number) => `${n.toFixed(0)} MiB`;

/** Samples the trees of `pids` for `ms` (or while `work` runs). */
async function sampled(pids: number[], work: () => Promise<unknown>): Promise<SampleSummary> {
  const sampling = await startSamplingElsewhere(pids);
  await work();
  return sampling.stop();
}

/** PAGES sync scrapes from CLIENTS loops, each page a fixture path in turn; throws on a failed one. */
async function scrapes(stack: ServiceStack, key: string): Promise<void> {
  let next = 0;
  const client = async () => {
    while (next < PAGES) {
      const url = stack.site!.origin + FIXTURE_PATHS[next++ % FIXTURE_PATHS.length];
      const res = await fetch(`${stack.apiUrl}/v1/scrape`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ url, render: 'browser' }),
      });
      const body = (await res.json()) as { error?: unknown };
      if (res.status !== 200 || body.error) {
        throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
}

async function level(concurrency: string): Promise<void> {
  const stack = await startServiceStack({ site: true });
  try {
    const worker = await stack.startWorker(concurrency === 'auto' ? {} : { RENDER_CONCURRENCY: concurrency });
    const key = await stack.createAccount('enterprise');
    const idle = await sampled([worker.pid!], () => sleep(2000));
    let apiPeak: SampleSummary | undefined;
    const busy = await sampled([worker.pid!], async () => {
      apiPeak = await sampled([stack.api.pid!], () => scrapes(stack, key));
    });
    const after = await sampled([worker.pid!], () => sleep(SETTLE_S * 1000));
    console.log(
      [
        `RENDER_CONCURRENCY=${concurrency}, ${PAGES} pages from ${CLIENTS} clients (load average ${loadavg()[0].toFixed(1)}):`,
        `  worker, started, no page yet: RSS ${mib(idle.peakRssMiB)}, PSS ${mib(idle.peakPssMiB)}, ${idle.processes} processes`,
        `  worker, under load: peak RSS ${mib(busy.peakRssMiB)}, PSS ${mib(busy.peakPssMiB)}, ${busy.processes} processes, ` +
          `${((busy.cpuSeconds * 1000) / PAGES).toFixed(0)} CPU ms a page`,
        `  worker, idle ${SETTLE_S} s after: peak RSS ${mib(after.peakRssMiB)}, PSS ${mib(after.peakPssMiB)}`,
        `  API while serving them: peak RSS ${mib(apiPeak!.peakRssMiB)}, PSS ${mib(apiPeak!.peakPssMiB)}`,
      ].join('\n'),
    );
  } finally {
    await stack.stop();
  }
}

/** dist/scripts/migrate on an empty database of its own: its peak memory and time. */
async function migration(): Promise<void> {
  const stack = await startServiceStack();
  try {
    const database = `scraper_bench_${stack.runId}_migrate`;
    const started = Date.now();
    const child = spawn(process.execPath, [resolve(__dirname, '../scripts/migrate.js')], {
      env: { ...stack.env, DATABASE_URL: `mysql://root@127.0.0.1:3306/${database}` },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    const peak = await sampled([child.pid!], () => exited);
    const code = await exited;
    await stack.db.query(`DROP DATABASE IF EXISTS \`${database}\``);
    if (code !== 0) throw new Error(`migrate exited with ${code}`);
    console.log(
      `dist/scripts/migrate.js on an empty database: peak RSS ${mib(peak.peakRssMiB)}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await stack.stop();
  }
}

async function main(): Promise<void> {
  console.log(`Node ${process.version}`);
  for (const concurrency of values.concurrency.split(',')) await level(concurrency.trim());
  await migration();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
