import { NestFactory } from '@nestjs/core';
import { json } from 'express';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { ApiEnv } from '@app/config';
import { AppModule, ApiModuleOptions } from './app.module';
import { requestId } from './common/request-id';
import { HttpDrain } from './common/http-drain';
import { serveOpenApi } from './common/openapi';
import { createValidationPipe } from './common/validation';
import { serveDashboard } from './dashboard/dashboard';

const BATCH_BODY_LIMIT = '128mb';

/** Builds the API exactly as production runs it; main.ts listens, tests use supertest on it. */
export async function createApiApp(
  options: ApiModuleOptions & { env: ApiEnv },
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(options), {
    bufferLogs: true,
    bodyParser: false,
    // Let start-up errors reach main(), which explains them, instead of Nest exiting on its own.
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.use(requestId);
  app.use(app.get(HttpDrain).refuseWhileDraining);
  serveDashboard(app);
  // A million-URL batch is ~60 MB of JSON; every other body is small. The first parser that
  // matches a request parses it; the second then skips it.
  app.use('/v1/scrape/batch/async', json({ limit: BATCH_BODY_LIMIT }));
  app.use(json({ limit: '1mb' }));
  app.useGlobalPipes(createValidationPipe());
  app.disable('x-powered-by');
  // A weak ETag is a SHA-1 of every JSON body; no client of this API revalidates with it.
  app.set('etag', false);
  app.set('trust proxy', false);
  serveOpenApi(app);
  return app;
}
