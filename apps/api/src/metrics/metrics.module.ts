import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { QueueMetrics } from './queue-metrics';
import { RejectionMetrics } from './rejection-metrics';

/** The API's series beside the shared ones of @app/metrics: queues and refused calls. */
@Module({
  controllers: [MetricsController],
  providers: [QueueMetrics, RejectionMetrics],
})
export class ApiMetricsModule {}
