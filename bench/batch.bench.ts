// `npm run bench:batch`: acceptance of huge batches, then a batch end to end (issue 4).
// 1. Acceptance: --tries POSTs of each --sizes batch (URLs on the fixture site, built and serialised
//    before the clock starts) to the compiled API as a real process, no worker running; p50 latency
//    from the request's first byte to the parsed 202, the CPU the API spent on it (all threads, from
//    /proc), and the API's RSS (sampled every 50 ms).
// 2. Expansion: all but the last batch of each size cancelled, then a worker expands the other two
//    into page rows and chunk jobs; their account's plan allows 0 pages in flight, so nothing renders
//    (the chunk job only hands itself back). Redis used_memory after expansion against before the POSTs.
// 3. End to end: a --pages batch of the fixture's server-rendered articles (render --render, auto by
//    default: plain HTTP) on a plan with 128 pages in flight; pages/s from the POST to the job's end.
// --e2e-only runs part 3 alone; --worker-cpu-prof-dir leaves a CPU profile of the worker there.
// Everything runs on a redis-server and a database of the bench's own, removed at the end.
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { JobStats } from '@app/jobs';
import { ARTICLE_COUNT } from '../test/fixtures/site/articles';
import { mib, redisUsedMemory, startServiceStack } from './service-stack';
import { processRssMiB, sample } from './process-tree';

const RSS_SAMPLE_MS = 50;
const URLS_PER_REDIS_TARGET = 200_000;
const TARGET_MS: Record<number, number> = { 200_000: 1500, 1_000_000: 6000 };
/** Far above what the bench spends, so neither the bucket nor the quota ever refuses it. */
const UNLIMITED = { ratePerMinute: 1_000_000, monthlyQuota: 100_000_000 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '200000,1000000' },
      tries: { type: 'string', default: '5' },
      pages: { type: 'string', default: '2000' },
      render: { type: 'string', default: 'auto' },
      concurrency: { type: 'string', default: '8' },
      // A directory: the API runs under --cpu-prof and leaves its profile there.
      'cpu-prof-dir': { type: 'string' },
      // A directory: the worker runs under --cpu-prof and leaves its profile there.
      'worker-cpu-prof-dir': { type: 'string' },
      // Only part 3 (end to end): no acceptance or expansion before it.
      'e2e-only': { type: 'boolean', default: false },
    },
  });
  const sizes = values.sizes.split(',').map(Number);
  const tries = Number(values.tries);
  const pages = Number(values.pages);
  const profile = values['cpu-prof-dir'];
  const workerProfile = values['worker-cpu-prof-dir'];
  const workerNodeArgs = workerProfile ? ['--cpu-prof', `--cpu-prof-dir=${workerProfile}`] : [];
  const stack = await startServiceStack({
    apiNodeArgs: profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
    site: true,
  });
  const { api, db, runId } = stack;
  const redis = stack.redisClient!;
  const site = stack.site!;
  try {
    await stack.createPlan(`paused_${runId}`, { ...UNLIMITED, maxConcurrentPages: 0 });
    await stack.createPlan(`bench_${runId}`, { ...UNLIMITED, maxConcurrentPages: 128 });
    const pausedKey = await stack.createAccount(`paused_${runId}`);
    const key = await stack.createAccount(`bench_${runId}`);
    const call = (token: string, method: string, path: string, body?: string | Buffer) =>
      stack.call(path, { method, token, body });

    const workerSettings = {
      WORKER_QUEUES: 'render',
      RENDER_CONCURRENCY: values.concurrency,
      // All pages are on one host; let it take the worker's whole concurrency, as bench:crawl does.
      HOST_CONCURRENCY: '64',
    };
    if (values['e2e-only']) await stack.startWorker(workerSettings, workerNodeArgs);
    else {
      // 1. Acceptance.
      const redisBefore = await redisUsedMemory(redis);
      const kept: { size: number; jobId: string }[] = [];
      for (const size of sizes) {
        const urls = Array.from(
          { length: size },
          (_, i) => `${site.origin}/static/article/${1 + (i % ARTICLE_COUNT)}?n=${i}`,
        );
        const body = Buffer.from(JSON.stringify({ urls, format: 'markdown' }));
        const rssBefore = processRssMiB(api.pid!);
        let rssPeak = rssBefore;
        const sampler = setInterval(
          () => (rssPeak = Math.max(rssPeak, processRssMiB(api.pid!))),
          RSS_SAMPLE_MS,
        );
        const ms: number[] = [];
        const cpuMs: number[] = [];
        const jobIds: string[] = [];
        for (let t = 0; t < tries; t++) {
          const cpuBefore = sample(api.pid!).cpuSeconds;
          const started = performance.now();
          const { job_id: jobId } = await call(pausedKey, 'POST', '/v1/scrape/batch/async', body);
          ms.push(performance.now() - started);
          cpuMs.push((sample(api.pid!).cpuSeconds - cpuBefore) * 1000);
          jobIds.push(jobId as string);
        }
        clearInterval(sampler);
        await sleep(1000);
        const rssAfter = processRssMiB(api.pid!);
        const p50 = median(ms);
        const target = TARGET_MS[size];
        console.log(
          `${size.toLocaleString('en')} URLs (${mib(body.length)} MiB of JSON): acceptance p50 ${p50.toFixed(0)} ms` +
            ` (tries ${ms.map((m) => m.toFixed(0)).join(', ')} ms)` +
            (target ? `, target < ${target} ms: ${p50 < target ? 'met' : 'MISSED'}` : '') +
            // CPU the API spent (all its threads): what the request costs whatever the neighbours do.
            `; API CPU p50 ${median(cpuMs).toFixed(0)} ms a try` +
            `; API RSS ${rssBefore.toFixed(0)} MiB before, peak +${(rssPeak - rssBefore).toFixed(0)} MiB,` +
            ` +${(rssAfter - rssBefore).toFixed(0)} MiB 1 s after`,
        );
        kept.push({ size, jobId: jobIds.pop()! });
        for (const id of jobIds) await call(pausedKey, 'DELETE', `/v1/jobs/${id}`);
      }
      const redisAccepted = await redisUsedMemory(redis);

      // 2. Expansion of one batch of each size, rendering held at 0 pages in flight by the plan.
      const expansionStarted = performance.now();
      await stack.startWorker(workerSettings, workerNodeArgs);
      const ids = kept.map((k) => k.jobId);
      for (;;) {
        if ((await new JobStats(db).chunks(ids)) === 0) break;
        await sleep(250);
      }
      const expansionSeconds = (performance.now() - expansionStarted) / 1000;
      const { rows } = await new JobStats(db).pages(ids);
      const expandedUrls = kept.reduce((sum, k) => sum + k.size, 0);
      if (Number(rows) !== expandedUrls)
        throw new Error(`expanded ${rows} page rows, expected ${expandedUrls}`);
      await sleep(1000);
      const redisExpanded = await redisUsedMemory(redis);
      const perTarget = ((redisExpanded - redisBefore) * URLS_PER_REDIS_TARGET) / expandedUrls;
      console.log(
        [
          `Redis used_memory: ${mib(redisBefore)} MiB before the POSTs, ${mib(redisAccepted)} MiB once accepted` +
            ` (${sizes.length * tries} batches, ${sizes.length * (tries - 1)} of them cancelled),` +
            ` ${mib(redisExpanded)} MiB with ${kept.map((k) => k.size.toLocaleString('en')).join(' + ')} URLs expanded` +
            ` (${Number(rows).toLocaleString('en')} page rows, ${expansionSeconds.toFixed(1)} s from the worker's start)`,
          `  growth per ${URLS_PER_REDIS_TARGET.toLocaleString('en')} URLs expanded: ${mib(perTarget)} MiB,` +
            ` target < 50 MB: ${perTarget < 50e6 ? 'met' : 'MISSED'}; ${await redis.dbsize()} keys in Redis`,
        ].join('\n'),
      );
      for (const id of ids) await call(pausedKey, 'DELETE', `/v1/jobs/${id}`);
    }

    // 3. End to end.
    if (pages > ARTICLE_COUNT) throw new Error(`--pages at most ${ARTICLE_COUNT} (the fixture's articles)`);
    const urls = Array.from({ length: pages }, (_, i) => `${site.origin}/static/article/${i + 1}`);
    site.resetHits();
    const started = performance.now();
    const { job_id: jobId } = await call(
      key,
      'POST',
      '/v1/scrape/batch/async',
      JSON.stringify({ urls, format: 'markdown', render: values.render }),
    );
    const job = await stack.waitForJobEnd(key, jobId as string);
    const seconds = (performance.now() - started) / 1000;
    const fetched = site.requests().filter((r) => r.path.startsWith('/static/article/')).length;
    console.log(
      `end to end: ${pages} fixture articles, render ${values.render}, one worker (RENDER_CONCURRENCY=${values.concurrency}):` +
        ` job ${job.status as string}, ${job.completed as number} completed, ${job.failed as number} failed,` +
        ` ${fetched} article requests at the site;` +
        ` ${(pages / seconds).toFixed(1)} pages/s (${seconds.toFixed(1)} s from the POST to the job's end)`,
    );
    if (job.status !== 'completed' || job.completed !== pages)
      throw new Error('the batch did not complete every page');
  } finally {
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
