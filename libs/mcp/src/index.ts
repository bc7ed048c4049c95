export { BackendRefusal, type RequestBody, type ScraperBackend } from './scraper-backend';
