import type { ScrapeOptions } from './scrape-options';

/** POST /v1/map (docs/api.md, Map): a site's URLs, listed without rendering them. */
export interface MapSettings extends Pick<ScrapeOptions, 'proxy' | 'sealed_proxy'> {
  /** Words: URLs holding more of them come first. */
  search?: string;
  limit: number;
  allow_subdomains: boolean;
  ignore_sitemap: boolean;
}

export const MAP_DEFAULTS: Omit<MapSettings, 'search'> = {
  limit: 5000,
  allow_subdomains: false,
  ignore_sitemap: false,
};

export const MAX_MAP_LIMIT = 30_000;
export const MAX_MAP_SEARCH_LENGTH = 500;
/**
 * A map's time on its worker: the start page and the sitemaps are read within it, and what was
 * not read by then is left out. The API waits this long plus a grace.
 */
export const MAP_TIME_MS = 15_000;

export interface MapData {
  accountId: string;
  environment: 'production' | 'sandbox';
  url: string;
  settings: MapSettings;
}

export interface MapResult {
  links: string[];
  /** More URLs were in scope than `limit`: the first `limit` (after ranking) are listed. */
  truncated: boolean;
}
