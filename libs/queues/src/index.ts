export { QueuesModule } from './queues.module';
export { JobProducer } from './job-producer';
export { QueueAdapter, StalledOutError, type RunningJob } from './bull/queue-adapter';
export { waitListKey } from './bull/keys';
