// `npm run bench:map`: POST /v1/map on a generated loopback site whose robots.txt names one sitemap
// of 50,000 URLs, through the API and one worker process (WORKER_QUEUES=render). Prints each map's
// time from the POST to the answer and the worker's CPU for all of them. Options: --urls N
// (50000), --runs N (5), --limit N (30000, the most a map lists).
import { parseArgs } from 'node:util';
import { startMapSite } from '../test/fixtures/map/map-site';
import { quantile, startSampling, summarize } from './process-tree';
import { startServiceStack } from './service-stack';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      urls: { type: 'string', default: '50000' },
      runs: { type: 'string', default: '5' },
      limit: { type: 'string', default: '30000' },
    },
  });
  const [urls, runs, limit] = [values.urls, values.runs, values.limit].map(Number);
  const site = await startMapSite({ hugeSitemapUrls: urls });
  const stack = await startServiceStack({ worker: { WORKER_QUEUES: 'render' } });
  try {
    const sampling = startSampling([stack.worker!.pid!]);
    const walls: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = process.hrtime.bigint();
      const res = await stack.call('/v1/map', {
        method: 'POST',
        token: stack.key,
        body: JSON.stringify({ url: `${site.origin}/`, limit }),
      });
      walls.push(Number(process.hrtime.bigint() - started) / 1e6);
      const links = res.links as string[];
      if (links.length !== Math.min(limit, urls)) throw new Error(`the map listed ${links.length} URLs`);
    }
    const { cpuSeconds, peakRssMiB } = summarize(sampling.stop());
    console.log(
      [
        `POST /v1/map of a site whose robots.txt names one sitemap of ${urls} URLs, limit ${limit}, one worker process (WORKER_QUEUES=render), ${runs} runs:`,
        `  time per map: median ${quantile(walls, 0.5).toFixed(0)} ms, max ${Math.max(...walls).toFixed(0)} ms (each: ${walls.map((w) => w.toFixed(0)).join(', ')})`,
        `  worker CPU: ${((cpuSeconds * 1000) / runs).toFixed(0)} ms a map; worker peak RSS ${peakRssMiB.toFixed(0)} MiB`,
      ].join('\n'),
    );
  } finally {
    await stack.stop();
    await site.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
