import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { WorkerEnv, loadWorkerEnv } from '@app/config';
import { WorkerModule } from '../../apps/worker/src/worker.module';

export interface WorkerHarness {
  app: INestApplication;
  env: WorkerEnv;
  close: () => Promise<void>;
}

/** Boots the real worker in-process (queues consumed, browser pool up), without its HTTP port. */
export async function startWorker(
  overrides: Partial<Record<keyof WorkerEnv, string>> = {},
): Promise<WorkerHarness> {
  const env = loadWorkerEnv({ ...process.env, ...overrides });
  const app = await NestFactory.create(WorkerModule.register({ env }), {
    logger: false,
    abortOnError: false,
  });
  await app.init();
  return { app, env, close: () => app.close() };
}
