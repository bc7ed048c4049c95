import { Writable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { WorkerEnv, loadWorkerEnv } from '@app/config';
import { QueueAdapter } from '@app/queues';
import { WorkerModule } from '../../apps/worker/src/worker.module';

export interface WorkerHarness {
  app: INestApplication;
  env: WorkerEnv;
  close: () => Promise<void>;
}

/**
 * Boots the real worker in-process (queues consumed, browser pool up), without its HTTP port.
 * `logs`, when given, gets every log line it writes, as raw text.
 */
export async function startWorker(
  overrides: Partial<Record<keyof WorkerEnv, string>> = {},
  { logs }: { logs?: string[] } = {},
): Promise<WorkerHarness> {
  const env = loadWorkerEnv({ ...process.env, ...overrides });
  const logDestination =
    logs &&
    new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(chunk.toString());
        done();
      },
    });
  const app = await NestFactory.create<NestFastifyApplication>(
    WorkerModule.register({ env, logDestination }),
    new FastifyAdapter(),
    {
      logger: false,
      abortOnError: false,
    },
  );
  await app.init();
  // Fastify adds its routes on ready(); supertest on getHttpServer() needs them.
  await app.getHttpAdapter().getInstance().ready();
  return { app, env, close: () => app.close() };
}

/**
 * Waits until the render queue holds nothing waiting, running or delayed: what earlier suites left
 * there goes first, so what a test then counts is its own.
 */
export async function waitForEmptyRenderQueue(worker: WorkerHarness, timeoutMs = 60_000): Promise<void> {
  const queues = worker.app.get(QueueAdapter);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await queues.counts('render');
    if (counts.waiting + counts.active + counts.delayed === 0) return;
    if (Date.now() > deadline) throw new Error(`render queue never emptied: ${JSON.stringify(counts)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
