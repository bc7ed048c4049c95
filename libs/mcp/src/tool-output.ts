import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JobAccepted, JobView } from '@app/jobs';
import type { ActionResults, MapResult, PageResult } from '@app/queue-contracts';
import { BackendRefusal } from './scraper-backend';

type Content = CallToolResult['content'][number];

/**
 * Bounds on what one tool answer holds, in characters: an agent's context is the scarce resource,
 * and a page's markdown, a map's links or a batch's results can each be megabytes.
 */
export const OUTPUT_LIMITS = {
  /** A scrape's text formats, each, unless the call asks for another `max_chars`. */
  pageChars: 50_000,
  /** The most a call may ask for with `max_chars`. */
  maxPageChars: 200_000,
  /** A job_status answer's page results together (split evenly between the pages it holds). */
  jobChars: 100_000,
  /** A map's listing. */
  mapChars: 50_000,
};

/** The text formats a page result may hold, in the order they are shown. */
const TEXT_FORMATS = ['markdown', 'text', 'html', 'raw_html'] as const;

/** `text` cut to `max` characters, saying how much was left out and how to get it. */
export function truncate(text: string, max: number, hint: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n[truncated: ${max} of ${text.length} characters shown; ${hint}]`;
}

const textItem = (text: string): Content => ({ type: 'text', text });

/** Images are left out of job results: a page of them would pass any bound. */
const LEFT_OUT_SCREENSHOT = '[screenshot: left out here; call scrape for this page to see it]';

/** The fields of a page's metadata that say something, on one line of JSON. */
function pageSummary(page: PageResult): string {
  const summary: Record<string, unknown> = {
    url: page.url,
    final_url: page.final_url,
    status_code: page.status_code,
  };
  for (const [name, value] of Object.entries(page.metadata)) if (value !== null) summary[name] = value;
  return JSON.stringify(summary);
}

/** What the page's actions brought back: screenshots, script values, HTML snapshots. */
function actionContent(actions: ActionResults, maxChars: number, images: boolean): Content[] {
  const items: Content[] = [];
  for (const data of actions.screenshots)
    items.push(images ? { type: 'image', data, mimeType: 'image/png' } : textItem(LEFT_OUT_SCREENSHOT));
  if (actions.javascript_returns.length) {
    const values = JSON.stringify(actions.javascript_returns.map((r) => r.value));
    items.push(
      textItem(`[javascript_returns]\n${truncate(values, maxChars, 'return less from the script')}`),
    );
  }
  for (const { url, html } of actions.scrapes)
    items.push(textItem(`[scrape action: ${url}]\n${truncate(html, maxChars, 'ask a larger max_chars')}`));
  return items;
}

/** A page error as the agent reads it: code, message, URL and status. */
function pageError(page: PageResult): string {
  const { code, message } = page.error!;
  const status = page.status_code === null ? '' : `, HTTP ${page.status_code}`;
  return `Page error ${code} for ${page.url}${status}: ${message}`;
}

/** How many of the page's formats are text (links included). */
const textFormats = (page: PageResult): number =>
  TEXT_FORMATS.filter((f) => page[f] !== undefined).length + (page.links ? 1 : 0);

/**
 * A page's formats as content items: each text format (markdown first) cut to `maxChars`, links one
 * a line, the screenshot as an image when `images`, then the metadata on one line.
 */
export function pageContent(page: PageResult, maxChars: number, images: boolean): Content[] {
  const items: Content[] = [];
  const several = textFormats(page) > 1;
  for (const format of TEXT_FORMATS) {
    const value = page[format];
    if (value === undefined) continue;
    const body = truncate(
      value,
      maxChars,
      'narrow it with only_main_content or include_tags, or ask a larger max_chars',
    );
    items.push(textItem(several ? `[${format}]\n${body}` : body));
  }
  if (page.links) {
    const list = truncate(page.links.join('\n'), maxChars, 'ask a larger max_chars');
    items.push(textItem(`[links: ${page.links.length}]\n${list}`));
  }
  if (page.screenshot !== undefined) {
    items.push(
      images
        ? { type: 'image', data: page.screenshot, mimeType: 'image/png' }
        : textItem(LEFT_OUT_SCREENSHOT),
    );
  }
  if (page.actions) items.push(...actionContent(page.actions, maxChars, images));
  items.push(textItem(`[metadata] ${pageSummary(page)}`));
  return items;
}

/** The `scrape` tool's answer: the page, or a tool error when the page failed. */
export function scrapeResult(page: PageResult, maxChars: number): CallToolResult {
  if (page.error)
    return {
      content: [textItem(pageError(page)), textItem(`[metadata] ${pageSummary(page)}`)],
      isError: true,
    };
  return { content: pageContent(page, maxChars, true) };
}

/** batch_scrape's and crawl's answer: the job id and how to follow it. */
export function acceptedResult(accepted: JobAccepted, what: string): CallToolResult {
  const text =
    `${what} queued as job ${accepted.job_id}. It runs in the background: call job_status with ` +
    `{"job_id": "${accepted.job_id}"} until its status is completed, failed or cancelled (results ` +
    `page through its next_cursor meanwhile); cancel stops it.`;
  return {
    content: [textItem(text)],
    structuredContent: { job_id: accepted.job_id, status: accepted.status },
  };
}

/** map's answer: the links one a line, bounded. */
export function mapResult(map: MapResult): CallToolResult {
  const head = `${map.links.length} URLs${map.truncated ? ' (more were found than limit; raise it or use search)' : ''}`;
  const list = truncate(
    map.links.join('\n'),
    OUTPUT_LIMITS.mapChars,
    'use search or a smaller limit to narrow the list',
  );
  return { content: [textItem(`${head}\n${list}`)] };
}

/**
 * job_status's (and cancel's) answer: the job's state and counts on one line of JSON, then its
 * results (an async scrape's page, or a page of a batch's or crawl's) within OUTPUT_LIMITS.jobChars.
 */
export function jobResult(job: JobView): CallToolResult {
  const { result, ...state } = job;
  const pages = result === null || 'error' in result ? [] : 'data' in result ? result.data : [result];
  const summary: Record<string, unknown> = { ...state };
  if (result && 'data' in result) summary.next_cursor = result.next;
  if (result && 'error' in result) summary.error = result.error;
  const ended = ['completed', 'failed', 'cancelled'].includes(job.status);
  const hint =
    result && 'data' in result && result.next
      ? 'More results follow: call job_status again with cursor set to next_cursor.'
      : ended
        ? 'The job has ended.'
        : 'The job is still running: call job_status again in a few seconds.';
  const content: Content[] = [textItem(`${JSON.stringify(summary)}\n${hint}`)];
  const share = OUTPUT_LIMITS.jobChars / Math.max(pages.length, 1);
  for (const page of pages) {
    const head = textItem(`--- result ${page.index}: ${page.url}`);
    const each = Math.floor(share / Math.max(textFormats(page), 1));
    content.push(head, ...(page.error ? [textItem(pageError(page))] : pageContent(page, each, false)));
  }
  return { content };
}

/** A refusal or failure as a tool error the agent can read (and act on), not a protocol error. */
export function errorResult(err: unknown): CallToolResult {
  const text =
    err instanceof BackendRefusal
      ? `Refused (${err.code}, HTTP ${err.status}): ${err.message}`
      : `Failed: ${err instanceof Error ? err.message : String(err)}`;
  return { content: [textItem(text)], isError: true };
}
