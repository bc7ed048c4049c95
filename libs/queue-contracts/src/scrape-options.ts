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

export interface ScrapeOptions {
  formats: OutputFormat[];
  only_main_content: boolean;
  render: RenderMode;
  engine: BrowserEngine;
  /** A CSS selector to wait for, or a number of milliseconds. */
  wait_for?: string | number;
  timeout: number;
  /** Sent with every request of the page. Secret: never logged, never echoed. */
  headers?: Record<string, string>;
  mobile: boolean;
  block_resources: boolean;
  include_tags?: string[];
  exclude_tags?: string[];
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
  'UNSUPPORTED_CONTENT',
  'OUT_OF_SCOPE',
  'CANCELLED',
] as const;
export type PageErrorCode = (typeof PAGE_ERROR_CODES)[number];

export interface PageMetadata {
  title: string | null;
  description: string | null;
  language: string | null;
  canonical_url: string | null;
  engine: EngineName;
}

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
  error?: { code: PageErrorCode; message: string };
}
