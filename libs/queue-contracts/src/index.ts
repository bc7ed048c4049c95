export * from './scrape-options';
export * from './crawl-options';
export type { SyncScrapeData, PagesData, ExpandData } from './render-queue';
export type { CrawlPageData } from './crawl-queue';
export type { DeliverData } from './webhooks-queue';
export type { QueueJobOptions } from './job-spec';
export { QUEUES, QUEUE_OF, jobOptions, jobIdOf } from './jobs';
export type { QueueName, JobName, JobData, JobResult, JobNamesOf } from './jobs';
