import type { ScrapeOptions } from './scrape-options';

/** What a crawl adds to the scrape options of its pages (docs/api.md, Request options). */
export interface CrawlSettings {
  /** Pages fetched at most (robots-blocked and out-of-scope URLs are reported, not fetched). */
  limit: number;
  /** Link hops from the start URL; sitemap URLs count as one hop. */
  max_depth: number;
  /** Patterns (RE2 syntax) on the URL path: one must match, when any are given. */
  include_paths: string[];
  /** Patterns (RE2 syntax) on the URL path: none may match. */
  exclude_paths: string[];
  allow_subdomains: boolean;
  allow_external_links: boolean;
  ignore_sitemap: boolean;
  respect_robots_txt: boolean;
}

/** A crawl job's stored options: every page is rendered with the scrape options. */
export type CrawlOptions = ScrapeOptions & CrawlSettings;

export const CRAWL_DEFAULTS: CrawlSettings = {
  limit: 100,
  max_depth: 5,
  include_paths: [],
  exclude_paths: [],
  allow_subdomains: false,
  allow_external_links: false,
  ignore_sitemap: false,
  respect_robots_txt: true,
};

export const MAX_CRAWL_LIMIT = 100_000;
export const MAX_CRAWL_DEPTH = 100;
/** Path patterns per list and characters per pattern. */
export const MAX_PATH_PATTERNS = 50;
export const MAX_PATH_PATTERN_LENGTH = 500;

/** Page error codes of URLs a crawl reports without fetching them (they use no quota). */
export const UNFETCHED_PAGE_CODES = ['OUT_OF_SCOPE', 'BLOCKED_ROBOTS'] as const;
