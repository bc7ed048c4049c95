import { randomUUID } from 'node:crypto';
import { CRAWL_JOBS, CRAWL_QUEUE, type CrawlJob } from './crawl-queue';
import type { JobSpec, QueueJobOptions } from './job-spec';
import { RENDER_JOBS, RENDER_QUEUE, type RenderJob } from './render-queue';
import { WEBHOOK_JOBS, WEBHOOKS_QUEUE, type WebhooksJob } from './webhooks-queue';

export const QUEUES = { render: RENDER_QUEUE, crawl: CRAWL_QUEUE, webhooks: WEBHOOKS_QUEUE } as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Every job on every queue: the one union of names and payloads (ids, never entities). */
export type QueueJob = RenderJob | CrawlJob | WebhooksJob;

export type JobName = QueueJob['name'];
export type JobOf<N extends JobName> = Extract<QueueJob, { name: N }>;
export type JobData<N extends JobName> = JobOf<N>['data'];
export type JobResult<N extends JobName> = JobOf<N>['result'];
export type JobNamesOf<Q extends QueueName> = Extract<QueueJob, { queue: Q }>['name'];

const SPECS_BY_QUEUE = {
  [RENDER_QUEUE]: RENDER_JOBS,
  [CRAWL_QUEUE]: CRAWL_JOBS,
  [WEBHOOKS_QUEUE]: WEBHOOK_JOBS,
};
const SPECS: { [N in JobName]: JobSpec<JobData<N>> } = { ...RENDER_JOBS, ...CRAWL_JOBS, ...WEBHOOK_JOBS };

export const QUEUE_OF = Object.fromEntries(
  Object.entries(SPECS_BY_QUEUE).flatMap(([queue, specs]) => Object.keys(specs).map((name) => [name, queue])),
) as { [N in JobName]: JobOf<N>['queue'] };

export function jobOptions(name: JobName): QueueJobOptions {
  return SPECS[name].options;
}

/**
 * The queue id of a job: the one place ids are made. A job handing its own work back while it
 * still runs under its id (`again`) takes a fresh one, or the queue would ignore the add. Random,
 * not the time: two runs of the same chunk (one a lost worker's, run again after its stall) can
 * hand back in the same millisecond, and one of the two adds would be dropped.
 */
export function jobIdOf<N extends JobName>(name: N, data: JobData<N>, again = false): string {
  const id = (SPECS[name] as JobSpec<JobData<N>>).id(data);
  return again ? `${id}:${randomUUID()}` : id;
}
