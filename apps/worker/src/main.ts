import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadWorkerEnv } from '@app/config';
import { explainStartupFailure } from '@app/common';
import { WorkerModule } from './worker.module';

async function main(): Promise<void> {
  const env = loadWorkerEnv();
  // A Nest HTTP app only for /healthz, /readyz and /metrics; the work comes from Bull queues.
  const app = await NestFactory.create(WorkerModule.register({ env }), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.listen(env.WORKER_PORT, '0.0.0.0');
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : explainStartupFailure(err)}\n`);
  process.exit(1);
});
