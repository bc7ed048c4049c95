// How the readiness rule's two settings play out (docs/decisions.md, "Rendering"): one page at a
// time (a single sync scrape's latency) through RenderService at each RENDER_IDLE_MS given, on the
// fixture site's late-content, client-rendered, static and never-quiet pages; prints, per kind, how
// many pages came back complete and their latency p50/p95/max.
// Run: node -r ts-node/register/transpile-only -r tsconfig-paths/register bench/readiness.bench.ts \
//        --idle 100,200,500 --cap 5000 --engine playwright --rounds 1
import { parseArgs } from 'node:util';
import { loadWorkerEnv } from '@app/config';
import { createAddressPolicy } from '@app/net-guard';
import { SCRAPE_DEFAULTS, type BrowserEngine, type PageResult } from '@app/queue-contracts';
import { startRendering } from '@app/rendering';
import { articleFor } from '../test/fixtures/site/articles';
import { startFixtureSite } from '../test/fixtures/site/fixture-site';
import { testEnvironment } from '../test/support/test-env';

interface Kind {
  name: string;
  paths: string[];
  complete(page: PageResult, path: string): boolean;
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const hasTitle = (page: PageResult, path: string) =>
  !page.error && (page.markdown ?? '').includes(`# ${articleFor(path.split('/').pop()!)!.title}`);

const KINDS: Kind[] = [
  { name: 'late content', paths: ids(1, 20).map((i) => `/late/article/${i}`), complete: hasTitle },
  { name: 'client-rendered', paths: ids(21, 30).map((i) => `/spa/article/${i}`), complete: hasTitle },
  { name: 'static', paths: ids(31, 40).map((i) => `/static/article/${i}`), complete: hasTitle },
  {
    name: 'polling, endless feed',
    paths: ['/ready/polling', '/ready/scroll', '/ready/polling', '/ready/scroll'],
    complete: (page) => !page.error,
  },
];

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      idle: { type: 'string', default: '100,200,500' },
      cap: { type: 'string', default: '5000' },
      engine: { type: 'string', default: 'playwright' },
      rounds: { type: 'string', default: '1' },
    },
  });
  const site = await startFixtureSite();
  console.log('| RENDER_IDLE_MS | RENDER_SETTLE_MAX_MS | pages | complete | p50 ms | p95 ms | max ms |');
  console.log('|---:|---:|---|---:|---:|---:|---:|');
  for (const idle of values.idle.split(',').map(Number)) {
    const rendering = await startRendering({
      env: {
        ...loadWorkerEnv(testEnvironment('bench')),
        RENDER_CONCURRENCY: 1,
        RENDER_IDLE_MS: idle,
        RENDER_SETTLE_MAX_MS: Number(values.cap),
      },
      policy: createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] }),
    });
    const options = {
      ...SCRAPE_DEFAULTS,
      render: 'browser' as const,
      engine: values.engine as BrowserEngine,
      timeout: 30_000,
    };
    // Warm-up: the browser's launch is not a page's latency.
    await rendering.service.render({
      url: `${site.origin}/static/article/1`,
      index: 0,
      options,
      isolationKey: 'b',
    });
    for (const kind of KINDS) {
      const times: number[] = [];
      let complete = 0;
      for (let round = 0; round < Number(values.rounds); round++) {
        for (const path of kind.paths) {
          const started = performance.now();
          const page = await rendering.service.render({
            url: site.origin + path,
            index: 0,
            options,
            isolationKey: 'b',
          });
          times.push(performance.now() - started);
          if (kind.complete(page, path)) complete++;
        }
      }
      times.sort((a, b) => a - b);
      const ms = (q: number) => Math.round(quantile(times, q));
      console.log(
        `| ${idle} | ${values.cap} | ${kind.name} | ${complete}/${times.length} | ${ms(0.5)} | ${ms(0.95)} | ${ms(1)} |`,
      );
    }
    await rendering.close();
  }
  await site.close();
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
