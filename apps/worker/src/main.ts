import 'reflect-metadata';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadWorkerEnv } from '@app/config';
import { exitAfterDrain, explainStartupFailure } from '@app/common';
import { WorkerModule } from './worker.module';
import { QueueWorkers } from './processors/queue-workers';

async function main(): Promise<void> {
  const env = loadWorkerEnv();
  // A Nest HTTP app only for /healthz, /readyz and /metrics; the work comes from Bull queues.
  const app = await NestFactory.create(WorkerModule.register({ env }), new FastifyAdapter(), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  await app.listen(env.WORKER_PORT, '0.0.0.0');
  // Not Nest's shutdown hooks: they would close the browsers and the stores before the queues,
  // under jobs still running. The drain comes first, then everything closes in Nest's order.
  exitAfterDrain(async (signal) => {
    const log = new NestLogger('Shutdown');
    log.log(`${signal}: taking no new jobs, finishing the active ones`);
    if (!(await app.get(QueueWorkers).drain(env.SHUTDOWN_GRACE_MS))) {
      // Exiting closes the browsers (Playwright and Puppeteer kill them at exit); the unfinished
      // jobs' locks lapse and Bull gives them to another worker, which renders those pages again.
      log.warn(`jobs still active after SHUTDOWN_GRACE_MS (${env.SHUTDOWN_GRACE_MS} ms); exiting anyway`);
      return 1;
    }
    log.log('drained; closing browsers and connections');
    await app.close();
    return 0;
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : explainStartupFailure(err)}\n`);
  process.exit(1);
});
