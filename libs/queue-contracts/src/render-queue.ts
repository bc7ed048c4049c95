import { randomUUID } from 'node:crypto';
import { JobSpec, PRIORITY, retried } from './job-spec';
import type { MapData, MapResult } from './map';
import type { PageResult, ScrapeOptions } from './scrape-options';

/** Every page a browser or HTTP fetch renders, but a crawl's. */
export const RENDER_QUEUE = 'render';

/** A synchronous scrape: nothing in MySQL; the API waits for the job's return value. */
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

/** A batch whose URL chunks are still to be expanded into pages and page jobs. */
export interface ExpandData {
  jobId: string;
}

export type RenderJob =
  | { queue: typeof RENDER_QUEUE; name: 'scrape-sync'; data: SyncScrapeData; result: PageResult }
  | { queue: typeof RENDER_QUEUE; name: 'pages'; data: PagesData; result: void }
  | { queue: typeof RENDER_QUEUE; name: 'expand'; data: ExpandData; result: void }
  | { queue: typeof RENDER_QUEUE; name: 'map'; data: MapData; result: MapResult };

export const RENDER_JOBS: { [N in RenderJob['name']]: JobSpec<Extract<RenderJob, { name: N }>['data']> } = {
  // Kept a minute after it ends, for a look at it (the waiting API has its result from the event).
  // A fresh id each, known before the add, so the caller can wait on its end.
  'scrape-sync': {
    options: {
      priority: PRIORITY.sync,
      attempts: 2,
      removeOnComplete: { age: 60 },
      removeOnFail: { age: 60 },
    },
    id: () => randomUUID(),
  },
  // A chunk is named by its job and first page: the reconciler and the chunk a window behind may
  // both queue it, and it runs once.
  pages: {
    options: retried(PRIORITY.async, 5),
    id: ({ jobId, fromIdx }) => `${jobId}:${fromIdx}`,
  },
  expand: {
    options: retried(PRIORITY.async, 10),
    id: ({ jobId }) => `${jobId}:expand`,
  },
  // A sync job like 'scrape-sync': the API waits on it, and it is kept a minute for a look.
  map: {
    options: {
      priority: PRIORITY.sync,
      attempts: 2,
      removeOnComplete: { age: 60 },
      removeOnFail: { age: 60 },
    },
    id: () => randomUUID(),
  },
};
