import type { JobStatus, JobView } from '@app/jobs';
import type { PageErrorCode, PageResult } from '@app/queue-contracts';

/** Our answers in Firecrawl's shapes (docs/firecrawl.md). Pure. */
export type FirecrawlVersion = 'v1' | 'v2';

/** Pages a crawl reported without fetching them: never in their `data`. */
const UNFETCHED: PageErrorCode[] = ['OUT_OF_SCOPE', 'BLOCKED_ROBOTS'];

/** Our queued and running are their `scraping`; the ends have the same names. */
export function theirStatus(status: JobStatus): string {
  return status === 'queued' || status === 'running' ? 'scraping' : status;
}

/** A page that was fetched (it has a document, or its target answered with an HTTP status). */
export function wasFetched(page: PageResult): boolean {
  return !page.error || page.status_code !== null;
}

const defined = (entries: [string, unknown][]): Record<string, unknown> =>
  Object.fromEntries(entries.filter(([, v]) => v !== undefined && v !== null));

/** A page result as their Document: camelCase formats, metadata with sourceURL and statusCode. */
export function toDocument(page: PageResult): Record<string, unknown> {
  const m = page.metadata;
  const metadata = defined([
    ['title', m.title],
    ['description', m.description],
    ['language', m.language],
    ['author', m.author],
    ['publishedTime', m.published_at],
    ['ogSiteName', m.site_name],
    ['canonical', m.canonical_url],
    ['numPages', m.page_count],
    ['sourceURL', page.url],
    ['url', page.final_url ?? page.url],
    ['statusCode', page.status_code],
    ['error', page.error?.message],
    ['cacheState', m.cache_state],
    ['cachedAt', m.cached_at],
  ]);
  const actions = page.actions && {
    screenshots: page.actions.screenshots.map(dataUrl),
    scrapes: page.actions.scrapes,
    javascriptReturns: page.actions.javascript_returns,
    pdfs: [],
  };
  return defined([
    ['markdown', page.markdown],
    ['html', page.html],
    ['rawHtml', page.raw_html],
    ['links', page.links],
    ['screenshot', page.screenshot === undefined ? undefined : dataUrl(page.screenshot)],
    ['actions', actions],
    ['metadata', metadata],
  ]);
}

// Theirs is a URL to the image; a data URL keeps ours self-contained.
const dataUrl = (png: string) => `data:image/png;base64,${png}`;

/** The HTTP status of a sync scrape that brought back no document (Firecrawl answers errors then). */
export function failedScrapeStatus(code: PageErrorCode): number {
  if (code === 'TIMEOUT') return 408;
  if (code === 'BLOCKED_ADDRESS' || code === 'BLOCKED_ROBOTS') return 403;
  return 500;
}

export interface StatusPage {
  view: JobView;
  pages: PageResult[];
  /** Their absolute `next` URL, or none (omitted, not null: their v1 client follows a present key). */
  next?: string;
}

/** A crawl's or batch's status with one page of its fetched pages. */
export function toJobStatus({ view, pages, next }: StatusPage): Record<string, unknown> {
  const finished = view.completed + view.failed;
  return {
    success: true,
    status: theirStatus(view.status),
    completed: finished,
    total: view.total,
    creditsUsed: finished,
    expiresAt: view.expires_at,
    ...(next === undefined ? {} : { next }),
    data: pages.filter(wasFetched).map(toDocument),
  };
}

/** GET …/errors: pages that failed without being fetched, and the URLs robots.txt kept out. */
export function toErrors(jobId: string, failed: PageResult[]) {
  const errors = failed
    .filter((p) => !wasFetched(p) && !UNFETCHED.includes(p.error!.code))
    .map((p) => ({
      id: `${jobId}:${p.index}`,
      url: p.url,
      code: p.error!.code,
      error: p.error!.message,
    }));
  const robotsBlocked = failed.filter((p) => p.error?.code === 'BLOCKED_ROBOTS').map((p) => p.url);
  return { errors, robotsBlocked };
}

/** A map's links: v1 a list of URLs, v2 a list of `{url}`. */
export function toMapLinks(version: FirecrawlVersion, links: string[]): Record<string, unknown> {
  return { success: true, links: version === 'v1' ? links : links.map((url) => ({ url })) };
}

/** Our error body `{detail, code, errors?, ...}` as theirs: `{success: false, error, code, details?}`. */
export function toErrorBody(
  ours: { detail: string; code: string; [extra: string]: unknown },
  fieldNames: Record<string, string>,
): Record<string, unknown> {
  const { detail, code, ...extra } = ours;
  const rename = (text: string) => text.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (w) => fieldNames[w] ?? w);
  const details = Array.isArray(extra.errors)
    ? (extra.errors as { field: string; message: string }[]).map((e) => ({
        field: rename(e.field),
        message: rename(e.message),
      }))
    : Object.keys(extra).length
      ? extra
      : undefined;
  return { success: false, error: rename(detail), code, ...(details === undefined ? {} : { details }) };
}
