import type { JobName } from './jobs';

/** Bull priorities: lower runs first. Sync scrapes go before async work (DESIGN.md "Fairness"). */
export const PRIORITY = { sync: 1, async: 5, bulk: 10 } as const;

export interface QueueJobOptions {
  priority: number;
  /** Bull-level attempts: a crashed worker's job is retried; page-level failures are results, not retries. */
  attempts: number;
  backoff?: { type: 'exponential'; delay: number };
  removeOnComplete: boolean | { age: number; count?: number };
  removeOnFail: boolean | { age: number; count?: number };
}

const OPTIONS: Record<JobName, QueueJobOptions> = {
  // Kept a minute after it ends, for a look at it (the waiting API has its result from the event).
  'scrape-sync': {
    priority: PRIORITY.sync,
    attempts: 2,
    removeOnComplete: { age: 60 },
    removeOnFail: { age: 60 },
  },
  expand: {
    priority: PRIORITY.async,
    attempts: 10,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: { age: 24 * 3600 },
  },
  // Gone once run either way: the delivery row in MySQL is the record, and the sweep re-adds a
  // delivery whose job was lost (a kept failed job would block re-adding its id).
  deliver: {
    priority: PRIORITY.async,
    attempts: 3,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: true,
  },
  // Fixed ids (`<job>:p:<idx>`) make a page's job unique; a failed one is kept a day, as for pages.
  'crawl-page': {
    priority: PRIORITY.bulk,
    attempts: 5,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: { age: 24 * 3600 },
  },
  pages: {
    priority: PRIORITY.async,
    attempts: 5,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: { age: 24 * 3600 },
  },
};

export function jobOptions(name: JobName): QueueJobOptions {
  return OPTIONS[name];
}
