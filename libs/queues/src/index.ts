export { QueuesModule } from './queues.module';
export { JobProducer } from './job-producer';
export type { AddOptions } from './job-producer';
