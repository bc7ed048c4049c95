import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { ApiEnv } from '@app/config';
import { AppModule, ApiModuleOptions } from './app.module';
import { requestId } from './common/request-id';
import { createValidationPipe } from './common/validation';

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
  app.useBodyParser('json', { limit: '1mb' });
  app.useGlobalPipes(createValidationPipe());
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.enableShutdownHooks();
  return app;
}
