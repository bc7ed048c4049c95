// `npm run bench:content`: what the content threads cost. The fixture site's server-rendered
// articles are converted at the API's defaults, in turns: (inline) on this thread as the worker did
// before the threads (parseDocument, needsJavaScript, buildContent on the same document: render:
// auto over http); (pool 1) through ContentPool one page at a time, for CPU per page against inline
// with the same parallelism; (pool C) with C pages in flight, for throughput. CPU is the whole
// process's (every thread), per page; "loop blocked" is the longest this thread's event loop went
// without a turn. Figures in docs/benchmarks.md, "Content threads".
// Options: --pages N (200), --rounds N (3), --threads N (CONTENT_THREADS; the CPUs by default),
//          --concurrency C (pages in flight for "pool C"; the thread count by default).
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { SCRAPE_DEFAULTS } from '@app/queue-contracts';
import { ContentPool, buildContent, needsJavaScript, parseDocument } from '@app/rendering';
import { startFixtureSite } from '../test/fixtures/site/fixture-site';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    threads: { type: 'string' },
    concurrency: { type: 'string' },
  },
});
const PAGES = Number(values.pages);
const ROUNDS = Number(values.rounds);
const THREADS = Number(values.threads ?? availableParallelism());
const CONCURRENCY = Number(values.concurrency ?? THREADS);
/** Articles of their own, as bench:render's static part uses. */
const FIRST_ID = 2000;
const CHUNK = 20;

interface Page {
  url: string;
  body: string;
}

async function fetchPages(): Promise<Page[]> {
  const site = await startFixtureSite({ crawlDelaySeconds: null });
  try {
    const pages: Page[] = [];
    for (let id = FIRST_ID; id < FIRST_ID + PAGES; id++) {
      const url = `${site.origin}/static/article/${id}`;
      pages.push({ url, body: await (await fetch(url)).text() });
    }
    return pages;
  } finally {
    await site.close();
  }
}

const input = ({ url, body }: Page) => ({
  body,
  kind: 'html' as const,
  url,
  options: SCRAPE_DEFAULTS,
});

function inline(page: Page): void {
  const document = parseDocument(page.body);
  if (needsJavaScript(document).needed) throw new Error(`${page.url} is not a static page`);
  buildContent({ ...input(page), document });
}

async function pooled(pool: ContentPool, page: Page): Promise<void> {
  const answer = await pool.run({ input: input(page), decide: true });
  if (!('content' in answer)) throw new Error(`${page.url}: ${JSON.stringify(answer)}`);
}

interface Tally {
  pages: number;
  seconds: number;
  cpuMs: number;
  loopBlockedMs: number;
}

/** Runs `convert` over `pages` with `concurrency` in flight, adding wall time, process CPU and loop delay to `tally`. */
async function measure(
  tally: Tally,
  pages: Page[],
  concurrency: number,
  convert: (page: Page) => void | Promise<void>,
): Promise<void> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < pages.length) {
        await convert(pages[next++]);
        // A turn of the event loop between pages, as the worker's I/O gives it.
        await new Promise(setImmediate);
      }
    }),
  );
  tally.seconds += Number(process.hrtime.bigint() - started) / 1e9;
  const { user, system } = process.cpuUsage(cpu);
  delay.disable();
  tally.pages += pages.length;
  tally.cpuMs += (user + system) / 1000;
  tally.loopBlockedMs = Math.max(tally.loopBlockedMs, delay.max / 1e6);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const pages = await fetchPages();
  const pool = new ContentPool({
    CONTENT_THREADS: THREADS,
    CONTENT_HEAP_MB: 512,
    CONTENT_TIMEOUT_MS: 15_000,
  });
  const kinds: [string, number, (page: Page) => void | Promise<void>][] = [
    ['inline', 1, inline],
    ['pool 1', 1, (page) => pooled(pool, page)],
    ...(CONCURRENCY > 1
      ? [[`pool ${CONCURRENCY}`, CONCURRENCY, (page: Page) => pooled(pool, page)] as (typeof kinds)[number]]
      : []),
  ];
  const empty = (): Tally => ({ pages: 0, seconds: 0, cpuMs: 0, loopBlockedMs: 0 });
  // Every thread and this one compile the same code first.
  for (const [, concurrency, convert] of kinds)
    await measure(empty(), pages.slice(0, 50), concurrency, convert);
  // The kinds take turns every CHUNK pages, so that a change in the machine's load hits them alike.
  const rounds = Array.from({ length: ROUNDS }, () => kinds.map(empty));
  for (const tallies of rounds) {
    for (let from = 0; from < pages.length; from += CHUNK) {
      for (const [i, [, concurrency, convert]] of kinds.entries()) {
        await measure(tallies[i], pages.slice(from, from + CHUNK), concurrency, convert);
      }
    }
  }
  await pool.close();
  const bytes = pages.reduce((sum, page) => sum + Buffer.byteLength(page.body), 0);
  console.log(
    `${PAGES} static articles (${Math.round(bytes / PAGES / 1024)} KiB each), ${THREADS} threads, ${ROUNDS} rounds, turns every ${CHUNK} pages\n`,
  );
  console.log('| run | pages/s | CPU ms/page | loop blocked ms (max) |\n| --- | ---: | ---: | ---: |');
  for (const [r, tallies] of rounds.entries()) {
    for (const [i, [label]] of kinds.entries()) {
      const t = tallies[i];
      console.log(
        `| ${label}, round ${r + 1} | ${(t.pages / t.seconds).toFixed(1)} | ${(t.cpuMs / t.pages).toFixed(2)} | ${t.loopBlockedMs.toFixed(0)} |`,
      );
    }
  }
  for (const [i, [label]] of kinds.entries()) {
    if (i === 0) continue;
    const ratios = rounds.map((tallies) => tallies[i].cpuMs / tallies[0].cpuMs);
    console.log(
      `\nCPU per page, ${label} / inline: median ${median(ratios).toFixed(3)} (${ratios.map((x) => x.toFixed(3)).join(', ')})`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
