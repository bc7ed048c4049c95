import type { JobData, JobNamesOf, JobResult, QueueName } from '@app/queue-contracts';
import type { RunningJob } from '@app/queues';

/** One handler per job name of a queue: the compiler refuses a processor that forgets one. */
export type JobHandlers<Q extends QueueName> = {
  [N in JobNamesOf<Q>]: (data: JobData<N>, job: RunningJob) => Promise<JobResult<N>>;
};

export interface QueueProcessor<Q extends QueueName> {
  readonly queue: Q;
  readonly handlers: JobHandlers<Q>;
  /** Jobs of the queue run at once in one worker. */
  readonly concurrency: number;
}
