import type { QueueName } from './queue-names';
import type { PageResult, ScrapeOptions } from './scrape-options';

/** A synchronous scrape: nothing in MySQL; the API waits for the Bull job's return value. */
export interface SyncScrapeData {
  accountId: string;
  environment: 'production' | 'sandbox';
  url: string;
  options: ScrapeOptions;
}

/** Pages [fromIdx, toIdx) of a job, rendered from their job_pages rows (one page for an async scrape). */
export interface PagesData {
  jobId: string;
  fromIdx: number;
  toIdx: number;
  /**
   * Split off another chunk to use an idle slot: it renders its pages but does not queue the next
   * chunk of the job (the chunk it came from does).
   */
  piece?: true;
}

/** Every job on every queue: the one union of names and payloads (ids, never entities). */
/** A batch whose URL chunks are still to be expanded into pages and page jobs. */
export interface ExpandData {
  jobId: string;
}

/** One try of a webhook delivery; `attemptNo` makes a stale or repeated job a no-op. */
export interface DeliverData {
  deliveryId: string;
  attemptNo: number;
}

/**
 * One page of a crawl (its job_pages row `idx`). `slotAt` marks a page that already booked its
 * host's next fetch slot (epoch ms) under a Crawl-delay and waited for it.
 */
export interface CrawlPageData {
  jobId: string;
  idx: number;
  slotAt?: number;
}

export type QueueJob =
  | { queue: 'render'; name: 'scrape-sync'; data: SyncScrapeData; result: PageResult }
  | { queue: 'render'; name: 'pages'; data: PagesData; result: void }
  | { queue: 'render'; name: 'expand'; data: ExpandData; result: void }
  | { queue: 'crawl'; name: 'crawl-page'; data: CrawlPageData; result: void }
  | { queue: 'webhooks'; name: 'deliver'; data: DeliverData; result: void };

export type JobName = QueueJob['name'];
export type JobOf<N extends JobName> = Extract<QueueJob, { name: N }>;
export type JobData<N extends JobName> = JobOf<N>['data'];
export type JobResult<N extends JobName> = JobOf<N>['result'];
export type JobNamesOf<Q extends QueueName> = Extract<QueueJob, { queue: Q }>['name'];

export const QUEUE_OF: { [N in JobName]: JobOf<N>['queue'] } = {
  'scrape-sync': 'render',
  pages: 'render',
  expand: 'render',
  'crawl-page': 'crawl',
  deliver: 'webhooks',
};
