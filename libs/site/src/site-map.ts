import type { UpstreamProxy } from '@app/net-guard';
import {
  MAP_TIME_MS,
  SCRAPE_DEFAULTS,
  type MapResult,
  type MapSettings,
  type ScrapeOptions,
} from '@app/queue-contracts';
import { mapLinks } from './map-links';
import type { Robots } from './robots';
import type { SitemapReader } from './sitemap-reader.service';

/** Sitemap URLs read at most, before scope, dedupe and ranking cut them to `limit`. */
const MAX_CANDIDATES = 100_000;

/** The start page's own fetch: the http engine, no browser, well within the map's time. */
export const MAP_START_PAGE_OPTIONS: ScrapeOptions = {
  ...SCRAPE_DEFAULTS,
  formats: ['links'],
  render: 'http',
  timeout: 10_000,
};

/** What a map reads a site with: the start page's links (none when it fails), robots.txt, sitemaps. */
export interface SiteReaders {
  startPageLinks(url: string): Promise<string[]>;
  robots(origin: string, proxy?: UpstreamProxy): Promise<Robots>;
  sitemaps: SitemapReader;
}

/**
 * POST /v1/map's work: the URLs of the start URL's site from robots.txt's Sitemap lines (else
 * /sitemap.xml), the sitemaps they lead to, and the start page's links, listed by mapLinks.
 * Nothing listed is fetched. Bounded by MAP_TIME_MS, the sitemap reader's file count and size
 * caps, and one fetch of robots.txt and of the start page, all through `proxy` when given.
 */
export async function mapSite(
  url: string,
  settings: MapSettings,
  readers: SiteReaders,
  proxy?: UpstreamProxy,
): Promise<MapResult> {
  const until = Date.now() + MAP_TIME_MS;
  const sitemapUrls = async () => {
    const origin = new URL(url).origin;
    const listed = (await readers.robots(origin, proxy)).sitemaps;
    return readers.sitemaps.pageUrls(origin, listed, MAX_CANDIDATES, { until, proxy });
  };
  const [pageLinks, listed] = await Promise.all([
    readers.startPageLinks(url),
    settings.ignore_sitemap ? [] : sitemapUrls(),
  ]);
  return mapLinks(url, [...listed, ...pageLinks], settings);
}
