export { CrawlScope } from './crawl-scope';
export { normaliseUrl, type NormalisedUrl } from './url-normaliser';
export { parseSitemap } from './sitemap';
export { fetchSiteFile, type SiteFile } from './site-file';
export { SitemapReader } from './sitemap-reader.service';
export { CRAWLER_TOKEN, readRobotsFile, toRobots, type Robots, type RobotsFile } from './robots';
export { mapLinks } from './map-links';
export { MAP_START_PAGE_OPTIONS, mapSite, type SiteReaders } from './site-map';
