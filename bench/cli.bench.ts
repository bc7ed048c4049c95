// `npm run bench:cli`: `scraper scrape` from a cold start (a new process: Node, the libraries, the
// content threads, Chromium) to markdown on stdout, for one client-rendered fixture page in a
// browser and one static page over http, RUNS times each; docs/benchmarks.md, CLI.
import { loadavg } from 'node:os';
import { runCli } from '../apps/cli/test/run-cli';
import { startFixtureSite } from '../test/fixtures/site/fixture-site';

const RUNS = Number(process.env.RUNS ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const site = await startFixtureSite({ crawlDelaySeconds: null });
  console.log(`load average at start: ${loadavg()[0].toFixed(1)}`);
  const cases = [
    {
      name: 'SPA page, --render browser',
      path: '/spa/article/feature',
      render: 'browser',
      holds: 'Urban Beekeeping',
    },
    {
      name: 'static page, --render http',
      path: '/crawl/about',
      render: 'http',
      holds: '# About the crawl site',
    },
  ];
  console.log('| page | runs | cold start to markdown (median, min, max) |\n| --- | ---: | --- |');
  try {
    for (const c of cases) {
      const seconds: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = process.hrtime.bigint();
        const run = await runCli(['scrape', `${site.origin}${c.path}`, '--render', c.render]);
        const took = Number(process.hrtime.bigint() - started) / 1e9;
        if (run.code !== 0 || !run.stdout.includes(c.holds))
          throw new Error(`${c.name}: ${run.code} ${run.stderr}`);
        seconds.push(took);
      }
      const f = (s: number) => `${s.toFixed(2)} s`;
      console.log(
        `| ${c.name} | ${RUNS} | ${f(median(seconds))}, ${f(Math.min(...seconds))}, ${f(Math.max(...seconds))} |`,
      );
    }
  } finally {
    await site.close();
    console.log(`load average at end: ${loadavg()[0].toFixed(1)}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
