// `npm run bench:webhooks`: webhook deliveries per second draining a backlog, and enqueue-to-delivery
// latency at a steady offered load, from a worker process to an HTTPS receiver on loopback.
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { ConfigModule, loadSharedEnv } from '@app/config';
import { newId } from '@app/common';
import { PersistenceModule } from '@app/persistence';
import { QueueAdapter, QueuesModule } from '@app/queues';
import { WebhookDeliveries, WebhooksModule } from '@app/webhooks';
import { migrate } from '../scripts/migrate';
import { makeTestCertificate, startHttpsReceiver } from '../test/fixtures/https';
import { insertEndedJob } from '../test/support/ended-jobs';
import { freePort, waitForHttp } from '../test/support/processes';
import { BENCH_SANDBOX_ENV } from '../test/fixtures/chromium';
import { testEnvironment } from '../test/support/test-env';

const BACKLOG = 1000;
const cpus = availableParallelism();
const STEADY_RATE = 100;
const STEADY_SECONDS = 20;

/** Runs `task` over `items`, `width` at a time. */
async function eachLimited<T>(items: T[], width: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: width }, lane));
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

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
  // Logs at the production level, to /dev/null: a real worker pays for them too.
  return spawn(process.execPath, [...process.execArgv, entry], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function main(): Promise<void> {
  const runId = randomBytes(4).toString('hex');
  const certificate = makeTestCertificate();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...testEnvironment(runId),
    NODE_ENV: 'production',
    ...BENCH_SANDBOX_ENV,
    LOG_LEVEL: 'info',
    DATABASE_URL: `mysql://root@127.0.0.1:3306/scraper_bench_${runId}`,
    REDIS_PREFIX: `scraper_bench_${runId}`,
    NODE_EXTRA_CA_CERTS: certificate.caPath,
  };
  await migrate(env.DATABASE_URL!);

  @Module({
    imports: [
      ConfigModule.forShared(loadSharedEnv(env)),
      PersistenceModule.forRoot(),
      QueuesModule,
      WebhooksModule,
    ],
  })
  class ProducerModule {}

  const receiver = await startHttpsReceiver({ certificate, behaviour: 200 });
  const app = await NestFactory.createApplicationContext(ProducerModule, { logger: false });
  const workerPort = await freePort();
  const worker = startWorker({ ...env, WORKER_QUEUES: 'webhooks', WORKER_PORT: String(workerPort) });
  try {
    const db = app.get(DataSource);
    const deliveries = app.get(WebhookDeliveries);
    const queues = app.get(QueueAdapter);
    const accountId = newId('acc');
    const endedJobs = async (count: number) => {
      const ids: string[] = [];
      await eachLimited(Array.from({ length: count }), 8, async () => {
        ids.push(await insertEndedJob(db, { accountId, webhookUrl: receiver.url }));
      });
      return ids;
    };
    await waitForHttp(`http://127.0.0.1:${workerPort}/healthz`, 60_000);

    // 1. Drain: a backlog queued while the queue is paused, then released at once.
    const backlog = await endedJobs(BACKLOG);
    await queues.pause('webhooks');
    await eachLimited(backlog, 8, (id) => deliveries.jobEnded(id));
    const drainStart = Date.now();
    await queues.resume('webhooks');
    const drained = await receiver.waitForRequests(BACKLOG, 120_000);
    const drainSeconds = (drained[BACKLOG - 1].receivedAt - drainStart) / 1000;

    // 2. Steady: STEADY_RATE deliveries a second, each timed from jobEnded to its arrival.
    const steady = await endedJobs(STEADY_RATE * STEADY_SECONDS);
    const sentAt = new Map<string, number>();
    const before = receiver.requests.length;
    const offerStart = Date.now();
    await new Promise<void>((done) => {
      let sent = 0;
      const timer = setInterval(() => {
        const due = Math.min(steady.length, Math.floor(((Date.now() - offerStart) * STEADY_RATE) / 1000));
        for (; sent < due; sent++) {
          sentAt.set(steady[sent], Date.now());
          void deliveries.jobEnded(steady[sent]);
        }
        if (sent >= steady.length) {
          clearInterval(timer);
          done();
        }
      }, 5);
    });
    const offeredSeconds = (Date.now() - offerStart) / 1000;
    const arrived = (await receiver.waitForRequests(before + steady.length, 120_000)).slice(before);
    const latencies = arrived
      .map((r) => r.receivedAt - sentAt.get((JSON.parse(r.body) as { job_id: string }).job_id)!)
      .sort((a, b) => a - b);

    console.log(
      [
        `webhook deliveries, one worker process (WORKER_QUEUES=webhooks), HTTPS receiver on loopback`,
        // The machine is shared: the load says how much of it the figures had.
        `  (load average over the last minute at the end: ${loadavg()[0].toFixed(1)} on ${cpus} cores)`,
        `  drain ${BACKLOG} queued:        ${Math.round(BACKLOG / drainSeconds)} deliveries/s (${drainSeconds.toFixed(2)} s; target >= 300/s)`,
        `  steady ${STEADY_RATE}/s offered (${(steady.length / offeredSeconds).toFixed(0)}/s achieved, ${steady.length} deliveries):`,
        `    enqueue-to-delivery p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms (target p95 < 1000 ms)`,
      ].join('\n'),
    );
    // The receiver has them all; the log must say so too once the last records are written.
    const expected = BACKLOG + steady.length;
    for (let waited = 0; ; waited += 100) {
      const [row] = await db.query<{ ok: string }[]>(
        `SELECT COUNT(*) AS ok FROM webhook_deliveries WHERE status = 'succeeded'`,
      );
      if (Number(row.ok) === expected && receiver.requests.length === expected) break;
      if (waited > 10_000) {
        throw new Error(
          `expected ${expected} deliveries: log ${row.ok}, receiver ${receiver.requests.length}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    await app.close();
    await receiver.close();
    const redis = new Redis(env.REDIS_URL!);
    const keys = redis.scanStream({ match: `${env.REDIS_PREFIX}:*`, count: 1000 });
    for await (const batch of keys as AsyncIterable<string[]>) if (batch.length) await redis.unlink(...batch);
    redis.disconnect();
    const admin = new DataSource({ type: 'mysql', url: 'mysql://root@127.0.0.1:3306/mysql' });
    await admin.initialize();
    await admin.query(`DROP DATABASE IF EXISTS \`scraper_bench_${runId}\``);
    await admin.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
