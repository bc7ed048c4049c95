// `npm run bench:crawl`: one worker process crawls the fixture's 1,000-page /big/ site (no
// Crawl-delay, HOST_CONCURRENCY raised so one host can take the worker's whole concurrency) through
// the API; prints pages/s and the peak memory of the worker's process tree and of a redis-server
// of the bench's own. Options: --concurrency N (RENDER_CONCURRENCY, default 8), --limit N (1000),
// --render auto|browser|http (auto: the static /big/ pages go over plain HTTP; browser: Chromium).
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { loadApiEnv } from '@app/config';
import { createApiApp } from '../apps/api/src/bootstrap';
import { migrate } from '../scripts/migrate';
import { BIG_SITE_PAGES } from '../test/fixtures/site/crawl-site';
import { startFixtureSite } from '../test/fixtures/site/fixture-site';
import { freePort, waitForHttp } from '../test/support/processes';
import { startRedisServer } from '../test/support/redis-server';
import { testEnvironment } from '../test/support/test-env';
import { Sample, sample } from './process-tree';

const SAMPLE_MS = 200;

/** The worker as production runs it, started the way this bench runs (compiled, or under ts-node). */
function startWorker(env: NodeJS.ProcessEnv): ChildProcess {
  const entry = resolve(
    __dirname,
    '..',
    'apps',
    'worker',
    'src',
    `main${__filename.endsWith('.ts') ? '.ts' : '.js'}`,
  );
  return spawn(process.execPath, [...process.execArgv, entry], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      concurrency: { type: 'string', default: '8' },
      render: { type: 'string', default: 'auto' },
      limit: { type: 'string', default: String(BIG_SITE_PAGES) },
    },
  });
  const limit = Number(values.limit);
  const runId = randomBytes(4).toString('hex');
  const redisServer = await startRedisServer();
  const site = await startFixtureSite({ crawlDelaySeconds: null, trapRefusedAddresses: false });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...testEnvironment(runId),
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: `mysql://root@127.0.0.1:3306/scraper_bench_${runId}`,
    REDIS_URL: redisServer.url,
    REDIS_PREFIX: `scraper_bench_${runId}`,
  };
  await migrate(env.DATABASE_URL!);
  const api = await createApiApp({ env: loadApiEnv(env) });
  await api.listen(0, '127.0.0.1');
  const apiUrl = await api.getUrl();
  const workerPort = await freePort();
  const worker = startWorker({
    ...env,
    WORKER_QUEUES: 'crawl',
    WORKER_PORT: String(workerPort),
    RENDER_CONCURRENCY: values.concurrency,
    HOST_CONCURRENCY: '64',
  });
  const redis = new Redis(redisServer.url);
  try {
    await waitForHttp(`http://127.0.0.1:${workerPort}/readyz`, 60_000);
    const call = async (path: string, init: RequestInit & { token: string }) => {
      const res = await fetch(apiUrl + path, {
        ...init,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${init.token}` },
      });
      const body = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const account = await call('/admin/v1/accounts', {
      method: 'POST',
      token: env.ADMIN_TOKEN!,
      body: JSON.stringify({ email: `bench-${runId}@example.test`, plan: 'enterprise' }),
    });
    const key = (account.keys as { environment: string; key: string }[]).find(
      (k) => k.environment === 'production',
    )!.key;

    const baseRedis = redisUsed(await redis.info('memory'));
    const samples: Sample[] = [];
    let redisPeak = baseRedis;
    const timer = setInterval(() => {
      samples.push(sample(worker.pid!));
      void redis.info('memory').then((info) => (redisPeak = Math.max(redisPeak, redisUsed(info))));
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
    let job: Record<string, unknown>;
    for (;;) {
      job = await call(`/v1/jobs/${jobId as string}?page_size=1`, { token: key });
      if (!['queued', 'running'].includes(job.status as string)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (Date.now() - started) / 1000;
    clearInterval(timer);
    const pageHits = site.requests().filter((r) => r.path.startsWith('/big/')).length;
    const peak = Math.max(...samples.map((s) => s.rssMiB));
    const cpu = samples[samples.length - 1].cpuSeconds - samples[0].cpuSeconds;
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
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    await api.close();
    redis.disconnect();
    await redisServer.stop();
    await site.close();
    const admin = new DataSource({ type: 'mysql', url: 'mysql://root@127.0.0.1:3306/mysql' });
    await admin.initialize();
    await admin.query(`DROP DATABASE IF EXISTS \`scraper_bench_${runId}\``);
    await admin.destroy();
  }
}

const redisUsed = (info: string) => Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? 0);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
