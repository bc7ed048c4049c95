import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { EVERY_ROUTE } from '@app/metrics';
import { MetricsController } from './metrics.controller';
import { QueueMetrics } from './queue-metrics';
import { RejectionMetrics } from './rejection-metrics.middleware';

/** The API's series beside the shared ones of @app/metrics: queues and refused calls. */
@Module({
  controllers: [MetricsController],
  providers: [QueueMetrics],
})
export class ApiMetricsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RejectionMetrics).forRoutes({ path: EVERY_ROUTE, method: RequestMethod.ALL });
  }
}
