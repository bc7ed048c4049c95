import { DynamicModule, Module, Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { ConfigModule, WorkerEnv } from '@app/config';
import { UsageModule } from '@app/auth';
import { ErrorFilter, httpLoggerOptions } from '@app/common';
import { Job, JobPage, PersistenceModule, RedisModule } from '@app/persistence';
import { QueuesModule } from '@app/queues';
import { RenderingModule } from '@app/rendering';
import { HealthController } from './health/health.controller';
import { QUEUE_PROCESSORS, QueueWorkers } from './processors/queue-workers';
import { RenderProcessor } from './processors/render.processor';
import { JobProgress } from './render/job-progress.service';
import { PageRunner } from './render/page-runner.service';
import { BatchExpander } from './render/batch-expander.service';
import { InFlightLimits } from './render/in-flight-limits';
import { SyncScrape } from './render/sync-scrape.service';
import { Reconciler } from './maintenance/reconciler.service';
import { RetentionSweeper } from './maintenance/retention-sweeper.service';
import { WebhooksModule } from '@app/webhooks';
import { WebhookProcessor } from './processors/webhook.processor';
import { DeliverySweeper } from './delivery/delivery-sweeper.service';

export interface WorkerModuleOptions {
  env: WorkerEnv;
  logDestination?: DestinationStream;
}

@Module({})
export class WorkerModule {
  static register({ env, logDestination }: WorkerModuleOptions): DynamicModule {
    const pinoHttp = httpLoggerOptions(env.LOG_LEVEL);
    const renders = env.WORKER_QUEUES.includes('render');
    // A pod that does not consume `render` never launches a browser.
    const renderParts: Provider[] = renders
      ? [
          JobProgress,
          PageRunner,
          SyncScrape,
          BatchExpander,
          InFlightLimits,
          RenderProcessor,
          Reconciler,
          RetentionSweeper,
        ]
      : [];
    const delivers = env.WORKER_QUEUES.includes('webhooks');
    const webhookParts: Provider[] = delivers ? [WebhookProcessor, DeliverySweeper] : [];
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forWorker(env),
        LoggerModule.forRoot({ pinoHttp: logDestination ? [pinoHttp, logDestination] : pinoHttp }),
        PersistenceModule.forRoot(),
        RedisModule,
        QueuesModule,
        TypeOrmModule.forFeature([Job, JobPage]),
        UsageModule,
        // Always: a render-only pod still creates the deliveries of the jobs it ends.
        WebhooksModule,
        ...(renders ? [RenderingModule] : []),
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        ...renderParts,
        ...webhookParts,
        {
          provide: QUEUE_PROCESSORS,
          inject: [...(renders ? [RenderProcessor] : []), ...(delivers ? [WebhookProcessor] : [])],
          useFactory: (...processors: unknown[]) => processors,
        },
        QueueWorkers,
      ],
    };
  }
}
