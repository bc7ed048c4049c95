export { QueuesModule } from './queues.module';
export { JobProducer } from './job-producer';
export { QueueAdapter } from './bull/queue-adapter';
export { waitListKey } from './bull/keys';
