import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { ApiEnv, ConfigModule } from '@app/config';
import { ErrorFilter, httpLoggerOptions } from '@app/common';
import { PersistenceModule, RedisModule } from '@app/persistence';
import { ApiKeyGuard, AuthModule } from '@app/auth';

import { AdminModule } from './admin/admin.module';
import { HealthModule } from './health/health.module';
import { KeysModule } from './keys/keys.module';
import { MeModule } from './me/me.module';
import { JobsModule } from './jobs/jobs.module';
import { ScrapeModule } from './scrape/scrape.module';
import { CrawlModule } from './crawl/crawl.module';
import { MapModule } from './map/map.module';
import { McpModule } from './mcp/mcp.module';
import { FirecrawlModule } from './firecrawl/firecrawl.module';
import { SessionsModule } from './sessions/sessions.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { QueuesModule } from '@app/queues';
import { MetricsModule } from '@app/metrics';
import { ApiMetricsModule } from './metrics/metrics.module';
import { HttpDrain } from './common/http-drain';

export interface ApiModuleOptions {
  env: ApiEnv;
  /** Where logs go (stdout by default); tests capture them to prove no key is ever written. */
  logDestination?: DestinationStream;
}

@Module({})
export class AppModule {
  static register({ env, logDestination }: ApiModuleOptions): DynamicModule {
    const pinoHttp = httpLoggerOptions(env.LOG_LEVEL);
    return {
      module: AppModule,
      imports: [
        ConfigModule.forApi(env),
        LoggerModule.forRoot({ pinoHttp: logDestination ? [pinoHttp, logDestination] : pinoHttp }),
        PersistenceModule.forRoot(),
        RedisModule,
        AuthModule,
        HealthModule,
        MeModule,
        KeysModule,
        AdminModule,
        QueuesModule,
        JobsModule,
        ScrapeModule,
        CrawlModule,
        MapModule,
        McpModule,
        FirecrawlModule,
        SessionsModule,
        WebhooksModule,
        MetricsModule,
        ApiMetricsModule,
      ],
      providers: [
        // Resolves the caller and takes its rate-limit token.
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
        HttpDrain,
      ],
    };
  }
}
