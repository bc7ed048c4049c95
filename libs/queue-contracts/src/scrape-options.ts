import type { ActionResults, PageAction } from './page-actions';

/**
 * What a caller may ask of a page and what comes back (docs/api.md, Request options and Page
 * result). Types only: the API validates into this shape, the worker renders from it.
 */
export type OutputFormat = 'markdown' | 'html' | 'raw_html' | 'text' | 'links' | 'screenshot';
export const OUTPUT_FORMATS: OutputFormat[] = ['markdown', 'html', 'raw_html', 'text', 'links', 'screenshot'];

export const RENDER_MODES = ['auto', 'browser', 'http'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];
export const BROWSER_ENGINES = ['playwright', 'puppeteer'] as const;
export type BrowserEngine = (typeof BROWSER_ENGINES)[number];
export type EngineName = 'http' | BrowserEngine;

/** A customer's own upstream proxy. Secret: stored and queued as `sealed_proxy`. */
export interface ProxySettings {
  url: string;
  username?: string;
  password?: string;
}
/** `none`: direct; `pool`: the operator's PROXY_URLS (the default when set); or the caller's own. */
export type ProxyChoice = 'none' | 'pool' | ProxySettings;

export interface ScrapeOptions {
  formats: OutputFormat[];
  only_main_content: boolean;
  render: RenderMode;
  engine: BrowserEngine;
  /** A CSS selector to wait for, or a number of milliseconds. */
  wait_for?: string | number;
  timeout: number;
  /**
   * Sent with the page's requests to the target URL's origin only (docs/api.md). Secret: never
   * logged or echoed, and in clear only in the API's request and the worker's render: stored and
   * queued options carry `sealed_headers` instead.
   */
  headers?: Record<string, string>;
  /** `headers` sealed for the account and environment (libs/jobs SealedHeaders). */
  sealed_headers?: string;
  mobile: boolean;
  block_resources: boolean;
  include_tags?: string[];
  exclude_tags?: string[];
  /** Done in order once the page is ready; the page is read after the last one. */
  actions?: PageAction[];
  /** The caller's session (sessions.ts): its cookies and storage before the page, saved after it. */
  session_id?: string;
  /** Absent: the operator's pool when PROXY_URLS is set, else direct. */
  proxy?: ProxyChoice;
  /** A customer's own `proxy` sealed for the account and environment (libs/jobs SealedHeaders). */
  sealed_proxy?: string;
  /** Milliseconds: a page cached at most this long ago is served from the result cache. Absent: 0, none is. */
  max_age?: number;
}

export const SCRAPE_DEFAULTS: ScrapeOptions = {
  formats: ['markdown'],
  only_main_content: true,
  render: 'auto',
  engine: 'playwright',
  timeout: 30_000,
  mobile: false,
  block_resources: true,
};

export const MAX_TIMEOUT_MS = 120_000;
export const MAX_HTML_BYTES = 10 * 1024 * 1024;
export const MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024;
/** Most `max_age` a request may give: 30 days. */
export const MAX_MAX_AGE_MS = 30 * 24 * 3_600_000;

export const PAGE_ERROR_CODES = [
  'HTTP_4XX',
  'HTTP_5XX',
  'TIMEOUT',
  'DNS',
  'CONNECT',
  'TLS',
  'BLOCKED_ADDRESS',
  'BLOCKED_ROBOTS',
  'TOO_LARGE',
  'RENDER_CRASH',
  'TOO_COMPLEX',
  'UNSUPPORTED_CONTENT',
  'OUT_OF_SCOPE',
  'CANCELLED',
  'ACTION_FAILED',
  'PROXY',
] as const;
export type PageErrorCode = (typeof PAGE_ERROR_CODES)[number];

export interface PageMetadata {
  title: string | null;
  description: string | null;
  author: string | null;
  /** ISO 8601: a date, or a date and time in UTC. */
  published_at: string | null;
  language: string | null;
  canonical_url: string | null;
  site_name: string | null;
  /** A PDF's pages; absent for other documents. */
  page_count?: number;
  engine: EngineName;
  /** `hit`: served from the result cache (docs/api.md, Cached results); `miss`: rendered now. */
  cache_state: 'hit' | 'miss';
  /** When a hit's page was rendered (ISO 8601); null for a miss. */
  cached_at: string | null;
}

/** What a page's document says of itself: its metadata but how it was got. */
export type DocumentMetadata = Omit<PageMetadata, 'engine' | 'cache_state' | 'cached_at'>;

/** The metadata of a page rendered now rather than served from the result cache. */
export const RENDERED_NOW: Pick<PageMetadata, 'cache_state' | 'cached_at'> = {
  cache_state: 'miss',
  cached_at: null,
};

/** The metadata of a page that has none (failed, or not HTML). */
export const NO_METADATA: DocumentMetadata = {
  title: null,
  description: null,
  author: null,
  published_at: null,
  language: null,
  canonical_url: null,
  site_name: null,
};

export interface PageResult {
  index: number;
  url: string;
  final_url: string | null;
  status_code: number | null;
  markdown?: string;
  html?: string;
  raw_html?: string;
  text?: string;
  links?: string[];
  /** Base64 PNG. */
  screenshot?: string;
  metadata: PageMetadata;
  timings: { total_ms: number; render_ms: number };
  /** What the page's actions brought back (also when one failed, up to it). */
  actions?: ActionResults;
  error?: { code: PageErrorCode; message: string };
}
