import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule, WorkerEnv } from '@app/config';
import { ErrorFilter, httpLoggerOptions } from '@app/common';
import { PersistenceModule, RedisModule } from '@app/persistence';
import { HealthController } from './health/health.controller';

@Module({})
export class WorkerModule {
  static register(env: WorkerEnv): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forWorker(env),
        LoggerModule.forRoot({ pinoHttp: httpLoggerOptions(env.LOG_LEVEL) }),
        PersistenceModule.forRoot(),
        RedisModule,
      ],
      controllers: [HealthController],
      providers: [{ provide: APP_FILTER, useClass: ErrorFilter }],
    };
  }
}
