import { z } from 'zod/v3';
import { OUTPUT_LIMITS } from './tool-output';

/**
 * The tools' input schemas: the REST API's request fields (docs/api.md) an agent is likely to
 * use, under their REST names, so the backend validates them exactly as the REST API does (its
 * message names the field). Bounds the REST API states are left to it, not repeated here.
 */

const url = z.string().describe('An http or https URL of a public address.');

/** The page options a scrape, a batch's pages and a crawl's pages share. */
const pageOptions = {
  formats: z
    .array(z.enum(['markdown', 'html', 'raw_html', 'text', 'links', 'screenshot']))
    .min(1)
    .optional()
    .describe(
      'What to return (default ["markdown"]): clean markdown, cleaned html, the raw_html, plain text, the page\'s links, a screenshot (PNG).',
    ),
  only_main_content: z
    .boolean()
    .optional()
    .describe("Only the page's main content, without navigation, headers and footers (default true)."),
  render: z
    .enum(['auto', 'browser', 'http'])
    .optional()
    .describe(
      'auto (default): plain HTTP first, a browser when the page needs JavaScript; browser: always; http: never.',
    ),
  wait_for: z
    .union([z.string(), z.number().int()])
    .optional()
    .describe('A CSS selector to wait for, or milliseconds to wait after load, before the page is read.'),
  timeout: z.number().int().optional().describe('Milliseconds for the whole page (default 30000).'),
  include_tags: z
    .array(z.string())
    .optional()
    .describe('CSS selectors: only these parts of the page are converted.'),
  exclude_tags: z.array(z.string()).optional().describe('CSS selectors removed before conversion.'),
  mobile: z.boolean().optional().describe('A mobile viewport and user agent.'),
  headers: z
    .record(z.string())
    .optional()
    .describe("Headers sent to the URL's origin only (e.g. a cookie or an authorization); kept secret."),
  actions: z
    .array(z.record(z.unknown()))
    .optional()
    .describe(
      'Browser actions done in order before the page is read, e.g. {"type":"click","selector":"#more"}, {"type":"wait","milliseconds":500}, {"type":"scroll","direction":"down"}, {"type":"write","selector":"input","text":"..."}, {"type":"press","key":"Enter"}.',
    ),
  max_age: z
    .number()
    .int()
    .optional()
    .describe(
      'Milliseconds: a page this key rendered with the same options within this time is returned from the cache, without rendering it again (default 0: always render).',
    ),
  session_id: z
    .string()
    .optional()
    .describe("A session name of your choosing: cookies and storage carry over between the session's pages."),
};

const maxChars = z
  .number()
  .int()
  .min(1000)
  .max(OUTPUT_LIMITS.maxPageChars)
  .optional()
  .describe(
    `Most characters of each text format returned (default ${OUTPUT_LIMITS.pageChars}); longer text is cut with a note.`,
  );

export const scrapeInput = { url, ...pageOptions, max_chars: maxChars };

/** Larger batches belong to the REST API (POST /v1/scrape/batch/async takes a million URLs). */
export const MAX_TOOL_BATCH_URLS = 1000;

export const batchScrapeInput = {
  urls: z
    .array(url)
    .min(1)
    .max(MAX_TOOL_BATCH_URLS)
    .describe(`The pages to scrape (at most ${MAX_TOOL_BATCH_URLS}).`),
  ...pageOptions,
};

export const crawlInput = {
  url: url.describe('The start page.'),
  limit: z
    .number()
    .int()
    .optional()
    .describe('Most pages to fetch (default 100); reserved from the quota, the unused part given back.'),
  max_depth: z
    .number()
    .int()
    .optional()
    .describe('Links followed from the start page (0: the start page only).'),
  include_paths: z
    .array(z.string())
    .optional()
    .describe('RE2 patterns: only URL paths matching one are crawled, e.g. "^/blog/".'),
  exclude_paths: z.array(z.string()).optional().describe('RE2 patterns: URL paths matching one are skipped.'),
  allow_subdomains: z.boolean().optional().describe("Follow links to the start host's subdomains."),
  allow_external_links: z.boolean().optional().describe('Follow links to other sites.'),
  ignore_sitemap: z.boolean().optional().describe("Do not seed the crawl from the site's sitemap."),
  ...pageOptions,
};

export const mapInput = {
  url: url.describe("The site's start page."),
  search: z.string().optional().describe('Words: URLs holding more of them are listed first.'),
  limit: z.number().int().optional().describe('Most URLs listed (default 5000).'),
  allow_subdomains: z.boolean().optional().describe("List the start host's subdomains' URLs too."),
  ignore_sitemap: z
    .boolean()
    .optional()
    .describe("Do not read the site's sitemaps: the start page's links only."),
};

const jobId = z.string().describe('The job_id batch_scrape or crawl answered.');

/** Small pages by default: each result's text shares the answer's bound. */
export const jobStatusInput = {
  job_id: jobId,
  cursor: z
    .string()
    .optional()
    .describe('The next_cursor of an earlier job_status answer, for the next results.'),
  page_size: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe('Most results in this answer (default 10); fewer results get more text each.'),
};

export const cancelInput = { job_id: jobId };
