import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { SharedEnv } from '@app/config';
import { QUEUES } from '@app/queue-contracts';
import { JobProducer } from './job-producer';

/** Registers every queue on Redis under REDIS_PREFIX, with one typed producer for all of them. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [SharedEnv],
      useFactory: (env: SharedEnv) => ({
        redis: env.REDIS_URL,
        prefix: `${env.REDIS_PREFIX}:bull`,
        settings: { stalledInterval: 15_000, maxStalledCount: 2 },
      }),
    }),
    ...Object.values(QUEUES).map((name) => BullModule.registerQueue({ name })),
  ],
  providers: [JobProducer],
  exports: [JobProducer, BullModule],
})
export class QueuesModule {}
