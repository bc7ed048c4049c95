// `npm run bench:crawl`: one worker process crawls the fixture's 1,000-page /big/ site (no
// Crawl-delay, HOST_CONCURRENCY raised so one host can take the worker's whole concurrency) through
// the API; prints pages/s and the peak memory of the worker's process tree and of a redis-server
// of the bench's own. Options: --concurrency N (RENDER_CONCURRENCY, default 8), --limit N (1000),
// --render auto|browser|http (auto: the static /big/ pages go over plain HTTP; browser: Chromium).
import { parseArgs } from 'node:util';
import { BIG_SITE_PAGES } from '../test/fixtures/site/crawl-site';
import { Sample, sample, summarize } from './process-tree';
import { mib, redisUsedMemory, startServiceStack } from './service-stack';

const SAMPLE_MS = 200;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      concurrency: { type: 'string', default: '8' },
      render: { type: 'string', default: 'auto' },
      limit: { type: 'string', default: String(BIG_SITE_PAGES) },
    },
  });
  const limit = Number(values.limit);
  const stack = await startServiceStack({
    worker: { WORKER_QUEUES: 'crawl', RENDER_CONCURRENCY: values.concurrency, HOST_CONCURRENCY: '64' },
    site: true,
  });
  const { call, key } = stack;
  const worker = stack.worker!;
  const redis = stack.redisClient!;
  const site = stack.site!;
  try {
    const baseRedis = await redisUsedMemory(redis);
    const samples: Sample[] = [];
    let redisPeak = baseRedis;
    const timer = setInterval(() => {
      samples.push(sample(worker.pid!));
      void redisUsedMemory(redis).then((used) => (redisPeak = Math.max(redisPeak, used)));
    }, SAMPLE_MS);
    const started = Date.now();
    const { job_id: jobId } = await call('/v1/crawl', {
      method: 'POST',
      token: key,
      body: JSON.stringify({
        url: `${site.origin}/big/1`,
        limit,
        max_depth: 20,
        ignore_sitemap: true,
        render: values.render,
      }),
    });
    const job = await stack.waitForJobEnd(key, jobId as string);
    const seconds = (Date.now() - started) / 1000;
    clearInterval(timer);
    const pageHits = site.requests().filter((r) => r.path.startsWith('/big/')).length;
    const { peakRssMiB: peak, cpuSeconds: cpu } = summarize(samples);
    console.log(
      [
        `crawl of the fixture's /big/ site, one worker process (WORKER_QUEUES=crawl, RENDER_CONCURRENCY=${values.concurrency}, HOST_CONCURRENCY=64), render ${values.render}, limit ${limit}:`,
        `  job ${job.status as string}: ${job.completed as number} pages completed, ${job.failed as number} failed, ${pageHits} page requests seen by the site`,
        `  ${(limit / seconds).toFixed(1)} pages/s (${seconds.toFixed(1)} s from POST /v1/crawl to the job's end)`,
        `  worker process tree: peak RSS ${peak.toFixed(0)} MiB, CPU ${cpu.toFixed(1)} s, processes up to ${Math.max(...samples.map((s) => s.processes))}`,
        `  redis-server used_memory: peak ${mib(redisPeak)} MiB (${mib(baseRedis)} MiB before the crawl)`,
      ].join('\n'),
    );
    if (job.status !== 'completed' || job.completed !== limit)
      throw new Error('the crawl did not fetch every page');
  } finally {
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
