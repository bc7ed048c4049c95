import { Global, Module } from '@nestjs/common';
import { QueueAdapterModule } from './bull/queue-adapter.module';
import { JobProducer } from './job-producer';

/** Every queue, with one typed producer for all of them and the adapter their consumers use. */
@Global()
@Module({
  imports: [QueueAdapterModule],
  providers: [JobProducer],
  exports: [JobProducer, QueueAdapterModule],
})
export class QueuesModule {}
