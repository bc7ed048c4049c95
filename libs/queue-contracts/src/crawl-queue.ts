import { JobSpec, PRIORITY, retried } from './job-spec';

/**
 * The pages of crawls, on a queue of their own: they never hold a render-queue slot a sync scrape
 * waits for, and WORKER_QUEUES can put them on pods of their own.
 */
export const CRAWL_QUEUE = 'crawl';

/**
 * One page of a crawl (its job_pages row `idx`). `slotAt` marks a page that already booked its
 * host's next fetch slot (epoch ms) under a Crawl-delay and waited for it.
 */
export interface CrawlPageData {
  jobId: string;
  idx: number;
  slotAt?: number;
}

export type CrawlJob = { queue: typeof CRAWL_QUEUE; name: 'crawl-page'; data: CrawlPageData; result: void };

export const CRAWL_JOBS: { 'crawl-page': JobSpec<CrawlPageData> } = {
  // One id a page: found again by another link, or queued again by the reconciler, it runs once.
  'crawl-page': {
    options: retried(PRIORITY.bulk, 5),
    id: ({ jobId, idx }) => `${jobId}:p:${idx}`,
  },
};
