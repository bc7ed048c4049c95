import type { MapResult, PageResult } from '@app/queue-contracts';
import type { JobAccepted, JobView } from '@app/jobs';

/**
 * A request body as the REST API takes it (docs/api.md): `url` or `urls` plus options in their
 * snake_case names. Each backend validates it as POST /v1/... would.
 */
export type RequestBody = Record<string, unknown>;

/**
 * What the MCP tools (and the CLI) need from a scraper, in the REST API's own shapes, so one set
 * of tools serves three places: the API's /mcp (its services, as the caller's key), `scraper mcp
 * --api` (a running cluster over HTTP) and `scraper mcp` alone (rendering in-process).
 */
export interface ScraperBackend {
  /** POST /v1/scrape: one page, waited for. A page error is a result with `error`, not a throw. */
  scrape(body: RequestBody): Promise<PageResult>;
  /** POST /v1/batch/scrape: a job to poll with `jobStatus`. */
  batchScrape(body: RequestBody): Promise<JobAccepted>;
  /** POST /v1/crawl: a job to poll with `jobStatus`. */
  crawl(body: RequestBody): Promise<JobAccepted>;
  /** POST /v1/map: the site's URLs, synchronously. */
  map(body: RequestBody): Promise<MapResult>;
  /** GET /v1/jobs/{id} (`cursor` and `page_size` page through a batch's or crawl's results). */
  jobStatus(jobId: string, page?: { cursor?: string; page_size?: number }): Promise<JobView>;
  /** DELETE /v1/jobs/{id}: the job as it stands after cancelling. */
  cancel(jobId: string): Promise<JobView>;
}

/**
 * A request the backend refused (bad input, unknown job, quota, rate limit), with the REST API's
 * error code and message; tools turn it into an MCP tool error the agent can read.
 */
export class BackendRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}
