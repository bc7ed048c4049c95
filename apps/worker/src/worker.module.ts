import { DynamicModule, Module, Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { ConfigModule, WorkerEnv } from '@app/config';
import { UsageModule } from '@app/auth';
import { ErrorFilter, httpLoggerOptions } from '@app/common';
import { JobStateModule } from '@app/jobs';
import { PersistenceModule, RedisModule } from '@app/persistence';
import { SessionsModule } from '@app/sessions';
import { ResultCacheModule } from '@app/result-cache';
import { NetGuardModule } from '@app/net-guard';
import { QueuesModule } from '@app/queues';
import { RenderingModule } from '@app/rendering';
import { MetricsModule } from '@app/metrics';
import { HealthController } from './health/health.controller';
import { MetricsController } from './metrics/metrics.controller';
import { RenderMetrics } from './metrics/render-metrics';
import { ContentMetrics } from './metrics/content-metrics';
import { DeliveryMetrics } from './metrics/delivery-metrics';
import { QUEUE_PROCESSORS, QueueWorkers } from './processors/queue-workers';
import { Draining } from './lifecycle/draining';
import { QueueSlots } from './lifecycle/queue-slots';
import { RenderProcessor } from './processors/render.processor';
import { JobProgress } from './render/job-progress.service';
import { PageRunner } from './render/page-runner.service';
import { BatchExpander } from './render/batch-expander.service';
import { InFlightLimits } from './render/in-flight-limits';
import { PageStep } from './render/page-step';
import { ProxyPool } from './render/proxy-pool';
import { Reconciler } from './maintenance/reconciler.service';
import { RetentionSweeper } from './maintenance/retention-sweeper.service';
import { WebhooksModule } from '@app/webhooks';
import { WebhookProcessor } from './processors/webhook.processor';
import { DeliverySweeper } from './delivery/delivery-sweeper.service';
import { CrawlProcessor } from './processors/crawl.processor';
import { CrawlRunner } from './crawl/crawl-runner.service';
import { CrawlGrowth } from './crawl/crawl-growth.service';
import { CrawlFrontier } from './crawl/crawl-frontier';
import { HostGate } from './crawl/host-gate';
import { RobotsRules } from './crawl/robots-rules.service';
import { SitemapReader } from '@app/site';
import { SiteMapper } from './map/site-mapper.service';

export interface WorkerModuleOptions {
  env: WorkerEnv;
  logDestination?: DestinationStream;
}

@Module({})
export class WorkerModule {
  static register({ env, logDestination }: WorkerModuleOptions): DynamicModule {
    const pinoHttp = httpLoggerOptions(env.LOG_LEVEL);
    const renders = env.WORKER_QUEUES.includes('render');
    const crawls = env.WORKER_QUEUES.includes('crawl');
    // A pod that consumes neither `render` nor `crawl` never launches a browser.
    const pageParts: Provider[] =
      renders || crawls
        ? [
            JobProgress,
            InFlightLimits,
            PageStep,
            ProxyPool,
            Reconciler,
            RetentionSweeper,
            RenderMetrics,
            ContentMetrics,
          ]
        : [];
    // A crawl's pages and a map (a render job) both read robots.txt and sitemaps.
    const siteParts: Provider[] = renders || crawls ? [RobotsRules, SitemapReader] : [];
    const renderParts: Provider[] = renders ? [PageRunner, BatchExpander, SiteMapper, RenderProcessor] : [];
    const crawlParts: Provider[] = crawls
      ? [CrawlRunner, CrawlGrowth, CrawlFrontier, HostGate, CrawlProcessor]
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
        JobStateModule,
        UsageModule,
        // Always: a render-only pod still creates the deliveries of the jobs it ends.
        WebhooksModule,
        MetricsModule,
        ...(renders || crawls ? [RenderingModule, SessionsModule, NetGuardModule, ResultCacheModule] : []),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        Draining,
        QueueSlots,
        ...pageParts,
        ...siteParts,
        ...renderParts,
        ...crawlParts,
        ...webhookParts,
        DeliveryMetrics,
        {
          provide: QUEUE_PROCESSORS,
          inject: [
            ...(renders ? [RenderProcessor] : []),
            ...(crawls ? [CrawlProcessor] : []),
            ...(delivers ? [WebhookProcessor] : []),
          ],
          useFactory: (...processors: unknown[]) => processors,
        },
        QueueWorkers,
      ],
    };
  }
}
