export * from './scrape-options';
export * from './queue-names';
