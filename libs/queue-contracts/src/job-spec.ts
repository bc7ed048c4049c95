/** Priorities: lower runs first, so a sync scrape, which a caller waits on, goes before async work. */
export const PRIORITY = { sync: 1, async: 5, bulk: 10 } as const;

export interface QueueJobOptions {
  priority: number;
  /** Queue-level attempts: a crashed worker's job is retried; page-level failures are results, not retries. */
  attempts: number;
  backoff?: { type: 'exponential'; delay: number };
  removeOnComplete: boolean | { age: number; count?: number };
  removeOnFail: boolean | { age: number; count?: number };
}

/** How the jobs of one name are queued: their options, and the id that makes adding them idempotent. */
export interface JobSpec<Data> {
  options: QueueJobOptions;
  /**
   * A queue ignores a second add under an id it holds: one id per unit of work. The work of a MySQL
   * job has ids that start with the job's id and ':', so the reconciler can tell a job with no
   * work queued (JobProducer.withWork).
   */
  id(data: Data): string;
}

/** Retried with backoff from a second; gone once done, a failed one kept a day for a look. */
export function retried(priority: number, attempts: number): QueueJobOptions {
  return {
    priority,
    attempts,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: { age: 24 * 3600 },
  };
}
