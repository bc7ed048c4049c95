import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
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
  const app = await NestFactory.create<NestFastifyApplication>(
    WorkerModule.register({ env }),
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
