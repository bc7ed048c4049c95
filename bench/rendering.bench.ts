// Pages per second and CPU per page of RenderService against the fixture site on loopback
// (docs/decisions.md, "Rendering"). One run renders --pages pages of one --kind, --concurrency at a
// time, after a short warm-up, through a fresh rendering stack whose browsers close at the end, so
// that their CPU time (reaped children's, from /proc/self/stat) is all counted, launch included.
// Run: node -r ts-node/register/transpile-only -r tsconfig-paths/register bench/rendering.bench.ts \
//        --kind static|spa|http --engine playwright|puppeteer --pages 60 --concurrency 2 --pool 1 --block true
//        --headers N (N caller's headers on every page: what sending them to the target's origin costs)
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadWorkerEnv } from '@app/config';
import { createAddressPolicy } from '@app/net-guard';
import { SCRAPE_DEFAULTS, type BrowserEngine } from '@app/queue-contracts';
import { startRendering } from '@app/rendering';
import { startFixtureSite } from '../test/fixtures/site/fixture-site';
import { testEnvironment } from '../test/support/test-env';

const CLOCK_TICKS = 100;

/** CPU seconds of this process's children that have exited (the browsers, once closed). */
function reapedChildrenCpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime: fields 16 and 17 of stat, counted from the state field (3) here.
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kind: { type: 'string', default: 'static' },
      engine: { type: 'string', default: 'playwright' },
      pages: { type: 'string', default: '60' },
      concurrency: { type: 'string', default: '2' },
      pool: { type: 'string', default: '1' },
      block: { type: 'string', default: 'true' },
      chromium: { type: 'string' },
      headers: { type: 'string', default: '0' },
    },
  });
  const pages = Number(values.pages);
  const concurrency = Number(values.concurrency);
  const site = await startFixtureSite();
  const test = testEnvironment('bench');
  const rendering = await startRendering({
    env: {
      ...loadWorkerEnv({ ...test, ...(values.chromium ? { CHROMIUM_PATH: values.chromium } : {}) }),
      RENDER_CONCURRENCY: concurrency,
      BROWSER_POOL_SIZE: Number(values.pool),
    },
    policy: createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] }),
  });
  const path = values.kind === 'spa' ? '/spa/article/' : '/static/article/';
  const options = {
    ...SCRAPE_DEFAULTS,
    render: values.kind === 'http' ? ('http' as const) : ('browser' as const),
    engine: values.engine as BrowserEngine,
    block_resources: values.block === 'true',
    ...(Number(values.headers) > 0 && {
      headers: Object.fromEntries(
        Array.from({ length: Number(values.headers) }, (_, i) => [
          `X-Bench-${i}`,
          `value-${i}-`.padEnd(40, 'x'),
        ]),
      ),
    }),
  };
  let failed = 0;
  const run = async (from: number, count: number) => {
    let next = from;
    const lane = async () => {
      while (next < from + count) {
        const n = ++next;
        // Ten pages per account: contexts are shared within an account and not across.
        const url = `${site.origin}${path}${n}`;
        const page = await rendering.service.render({ url, options, isolationKey: `bench-${n % 10}` });
        if (page.error) failed++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
  };
  const cpuBefore = reapedChildrenCpu();
  // Warm-up: the browser starts and Node compiles what it lazily loads; counted for Chromium only.
  await run(9_000, concurrency * 2);
  const nodeBefore = process.cpuUsage();
  const started = Date.now();
  await run(0, pages);
  const seconds = (Date.now() - started) / 1000;
  const node = process.cpuUsage(nodeBefore);
  await rendering.close();
  const chromiumMs = ((reapedChildrenCpu() - cpuBefore) * 1000) / (pages + concurrency * 2);
  const nodeMs = (node.user + node.system) / 1000 / pages;
  console.log(
    `${values.kind} via ${values.kind === 'http' ? 'http' : values.engine}, pool ${values.pool}, ` +
      `concurrency ${concurrency}, block ${values.block}, headers ${values.headers}: ${pages} pages (${failed} failed) in ${seconds.toFixed(1)} s, ` +
      `${(pages / seconds).toFixed(2)} pages/s; CPU per page: Chromium ${chromiumMs.toFixed(0)} ms, Node ${nodeMs.toFixed(0)} ms`,
  );
  await site.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
