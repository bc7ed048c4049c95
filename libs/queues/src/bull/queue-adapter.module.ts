import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { SharedEnv } from '@app/config';
import { QUEUES } from '@app/queue-contracts';
import { bullPrefix } from './keys';
import { QueueAdapter } from './queue-adapter';

/** Every queue on Redis under REDIS_PREFIX, behind the adapter. */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [SharedEnv],
      useFactory: (env: SharedEnv) => ({
        redis: env.REDIS_URL,
        prefix: bullPrefix(env.REDIS_PREFIX),
        settings: { stalledInterval: 15_000, maxStalledCount: 2 },
      }),
    }),
    ...Object.values(QUEUES).map((name) => BullModule.registerQueue({ name })),
  ],
  providers: [QueueAdapter],
  exports: [QueueAdapter],
})
export class QueueAdapterModule {}
