import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { ApiEnv } from '@app/config';
import { AppModule, ApiModuleOptions } from './app.module';
import { echoRequestId, requestId } from './common/request-id';
import { clientErrorHandler, frameworkErrors } from './common/framework-errors';
import { HttpDrain } from './common/http-drain';
import { BODY_LIMIT, acceptJsonBodies } from './common/json-body';
import { authenticateFirst } from './common/authenticate-first';
import { httpServerOptions } from './common/http-options';
import { serveOpenApi } from './common/openapi';
import { createValidationPipe } from './common/validation';
import { serveDashboard } from './dashboard/dashboard';
import { firecrawlErrorBodies } from './firecrawl/firecrawl-errors';

/**
 * Builds the API exactly as production runs it; main.ts listens, tests use supertest on it once
 * `ready()` (Fastify: docs/decisions.md, "HTTP layer"). Fastify sends no x-powered-by and no
 * ETag, and trusts a proxy only when TRUST_PROXY names it.
 */
export async function createApiApp(
  options: ApiModuleOptions & { env: ApiEnv },
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    ...httpServerOptions(options.env),
    bodyLimit: BODY_LIMIT,
    genReqId: requestId,
    frameworkErrors,
    clientErrorHandler,
    // HttpDrain answers with the API's error body; Fastify's own 503 while closing would not.
    return503OnClosing: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(options), adapter, {
    bufferLogs: true,
    // Nest's parsers would replace acceptJsonBodies' and take any form body.
    bodyParser: false,
    // Let start-up errors reach main(), which explains them, instead of Nest exiting on its own.
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', echoRequestId);
  fastify.addHook('onRequest', app.get(HttpDrain).refuseWhileDraining);
  fastify.addHook('onRequest', authenticateFirst(app));
  fastify.addHook('onSend', firecrawlErrorBodies);
  acceptJsonBodies(fastify);
  await serveDashboard(app);
  app.useGlobalPipes(createValidationPipe());
  serveOpenApi(app);
  return app;
}
