import { Global, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { EVERY_ROUTE, HttpMetrics } from './http-metrics.middleware';

/**
 * One Prometheus registry per application (not prom-client's global one, so an API and a worker
 * booted in one test process keep their series apart), the process's default metrics, and the
 * HTTP latency histogram of every request. Each app serves the registry at /metrics itself.
 */
@Global()
@Module({
  providers: [
    {
      provide: Registry,
      useFactory: () => {
        const registry = new Registry();
        collectDefaultMetrics({ register: registry });
        return registry;
      },
    },
  ],
  exports: [Registry],
})
export class MetricsModule implements NestModule {
  // Not also a provider: Nest builds middleware itself, and a second instance would register twice.
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetrics).forRoutes({ path: EVERY_ROUTE, method: RequestMethod.ALL });
  }
}
