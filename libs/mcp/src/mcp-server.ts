import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ScraperBackend } from './scraper-backend';
import {
  OUTPUT_LIMITS,
  acceptedResult,
  errorResult,
  jobResult,
  mapResult,
  scrapeResult,
} from './tool-output';
import {
  batchScrapeInput,
  cancelInput,
  crawlInput,
  jobStatusInput,
  mapInput,
  scrapeInput,
} from './tool-schemas';

export const MCP_SERVER_NAME = 'scraper-cluster';

/** The answer of `run`, or a tool error carrying its refusal: never a protocol error. */
async function answer(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    return errorResult(err);
  }
}

/** Drops what the tools add to a REST body (`max_chars`), and the fields left unset. */
function restBody(args: Record<string, unknown>): Record<string, unknown> {
  const { max_chars: _maxChars, ...body } = args;
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/**
 * The scraper's MCP tools over `backend` (docs/mcp.md): scrape answers inline, batch_scrape and
 * crawl answer a job id that job_status follows and cancel stops, map lists a site's URLs. The
 * backend decides everything the REST API decides (validation, address policy, quota, rate);
 * the tools shape its answers for an agent, within OUTPUT_LIMITS.
 */
export function createMcpServer(backend: ScraperBackend, version = '1.0.0'): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version });

  server.registerTool(
    'scrape',
    {
      title: 'Scrape a page',
      description:
        "Fetches one web page (rendering its JavaScript when needed) and returns its content now: clean markdown by default, or the formats asked for, then the page's metadata (title, description, language, final URL, status). Use it to read a page. A page that fails (HTTP error, timeout, blocked address) is a tool error naming the cause. Counts one page of the monthly quota.",
      inputSchema: scrapeInput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      answer(async () =>
        scrapeResult(await backend.scrape(restBody(args)), args.max_chars ?? OUTPUT_LIMITS.pageChars),
      ),
  );

  server.registerTool(
    'batch_scrape',
    {
      title: 'Scrape many pages in the background',
      description:
        'Queues up to 1000 URLs to scrape with the same options and answers a job id at once, without waiting. Follow it with job_status (results page through next_cursor); stop it with cancel. Counts one page of the monthly quota per URL.',
      inputSchema: batchScrapeInput,
      annotations: { openWorldHint: true },
    },
    (args) => answer(async () => acceptedResult(await backend.batchScrape(restBody(args)), 'The batch')),
  );

  server.registerTool(
    'crawl',
    {
      title: 'Crawl a site in the background',
      description:
        "Crawls a site from a start page, following its links (and its sitemap) within the site up to limit pages and max_depth, honouring robots.txt, and answers a job id at once. Follow it with job_status; stop it with cancel. Use map first to only list a site's URLs. Reserves limit pages of the monthly quota and gives back what it does not use.",
      inputSchema: crawlInput,
      annotations: { openWorldHint: true },
    },
    (args) => answer(async () => acceptedResult(await backend.crawl(restBody(args)), 'The crawl')),
  );

  server.registerTool(
    'map',
    {
      title: "List a site's URLs",
      description:
        "Lists a site's URLs from its sitemaps and its start page's links, without fetching the pages: fast, and one page of quota. With search, the URLs holding its words come first. Use it to find the pages to scrape.",
      inputSchema: mapInput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) => answer(async () => mapResult(await backend.map(restBody(args)))),
  );

  server.registerTool(
    'job_status',
    {
      title: "A job's status and results",
      description:
        "A batch_scrape or crawl job's status (queued, running, completed, failed, cancelled), its counts (total, completed, failed) and a page of its results (markdown per page, cut to fit), also while it runs. When next_cursor is set, pass it as cursor for the next results.",
      inputSchema: jobStatusInput,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answer(async () =>
        jobResult(
          await backend.jobStatus(args.job_id, {
            ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
            page_size: args.page_size ?? 10,
          }),
        ),
      ),
  );

  server.registerTool(
    'cancel',
    {
      title: 'Cancel a job',
      description:
        'Cancels a batch_scrape or crawl job: no new page starts, and unstarted pages go back to the quota. Answers the job as it stands; an ended job is left as it is.',
      inputSchema: cancelInput,
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    (args) => answer(async () => jobResult(await backend.cancel(args.job_id))),
  );

  return server;
}
