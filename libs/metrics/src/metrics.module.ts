import { Global, Module } from '@nestjs/common';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { HttpMetrics } from './http-metrics';

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
    HttpMetrics,
  ],
  exports: [Registry],
})
export class MetricsModule {}
