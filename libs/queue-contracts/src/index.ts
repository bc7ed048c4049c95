export * from './scrape-options';
export * from './crawl-options';
export * from './queue-names';
export * from './jobs';
export * from './job-options';
