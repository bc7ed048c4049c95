export { QueuesModule } from './queues.module';
export { JobProducer } from './job-producer';
export type { AddOptions, WaitingJob } from './job-producer';
