import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { SingleBar } from 'cli-progress';
import type { JobView } from '@app/jobs';
import type { ScraperBackend } from '@app/mcp';
import type { PageResult } from '@app/queue-contracts';
import { CliError, EXIT, pageErrorLine, pageExitCode } from './exit-codes';
import { pageContent, pageLine, print, writePage, type CliFormat } from './output';

export interface ScrapeFlags {
  format: CliFormat;
  render?: string;
  waitFor?: string;
  actions?: string;
  output?: string;
  timeout?: number;
  allContent?: boolean;
}

/** `scraper scrape URL`: the page's content in one format, raw, to stdout or `-o file`. */
export async function scrapeCommand(
  backend: ScraperBackend,
  url: string,
  flags: ScrapeFlags,
): Promise<number> {
  if (flags.format === 'screenshot' && !flags.output && process.stdout.isTTY) {
    throw new CliError(EXIT.usage, 'scraper: a screenshot is PNG bytes: give -o file.png or pipe stdout');
  }
  const body = {
    url,
    ...pageOptions(flags),
    ...(flags.waitFor !== undefined ? { wait_for: flags.waitFor } : {}),
    ...(flags.actions !== undefined ? { actions: await readActions(flags.actions) } : {}),
  };
  const page = await backend.scrape(body);
  if (page.error) {
    process.stderr.write(`${pageErrorLine(url, page.error)}\n`);
    return pageExitCode(page.error);
  }
  const content = pageContent(page, flags.format);
  if (flags.output) await writeFile(flags.output, content);
  // A shell prompt after text output starts on a line of its own.
  else await print(typeof content === 'string' && !content.endsWith('\n') ? `${content}\n` : content);
  return EXIT.ok;
}

export interface CrawlFlags {
  limit: number;
  maxDepth?: number;
  out?: string;
  format: CliFormat;
  render?: string;
}

/**
 * `scraper crawl URL`: a crawl job, followed to its end. Each page goes to `--out` as a file and
 * to stdout as a JSON line when piped (a line per page for a person otherwise); a progress bar on
 * stderr when it is a terminal. Ctrl-C cancels the job.
 */
export async function crawlCommand(backend: ScraperBackend, url: string, flags: CrawlFlags): Promise<number> {
  if (flags.out) await mkdir(flags.out, { recursive: true });
  const body = {
    url,
    ...pageOptions(flags),
    limit: flags.limit,
    ...(flags.maxDepth !== undefined ? { max_depth: flags.maxDepth } : {}),
  };
  const { job_id: jobId } = await backend.crawl(body);
  const cancel = () => void backend.cancel(jobId).finally(() => process.exit(130));
  process.once('SIGINT', cancel);
  const bar = process.stderr.isTTY
    ? // Cleared when stopped, so the lines printed between its redraws stay clean.
      new SingleBar({
        stream: process.stderr,
        format: 'crawl [{bar}] {value}/{total} pages',
        clearOnComplete: true,
      })
    : null;
  bar?.start(1, 0);
  const pages: PageResult[] = [];
  try {
    for await (const { view, page } of jobPages(backend, jobId)) {
      bar?.setTotal(Math.max(1, view.total));
      bar?.update(view.completed + view.failed);
      if (!page) continue;
      pages.push(page);
      const file = flags.out && !page.error ? await writePage(flags.out, page, flags.format) : undefined;
      bar?.stop();
      await print(process.stdout.isTTY ? personLine(page, file) : pageLine(page, file));
      bar?.start(Math.max(1, view.total), view.completed + view.failed);
    }
  } finally {
    bar?.stop();
    process.removeListener('SIGINT', cancel);
  }
  const failed = pages.filter((p) => p.error);
  if (pages.length && failed.length === pages.length) {
    const first = failed[0].error!;
    process.stderr.write(`${pageErrorLine(failed[0].url, first)}\n`);
    return pageExitCode(first);
  }
  if (process.stderr.isTTY) process.stderr.write(`${pages.length} pages, ${failed.length} failed\n`);
  return EXIT.ok;
}

export interface MapFlags {
  limit?: number;
  search?: string;
}

/** `scraper map URL`: the site's URLs, one a line for a person, JSON lines when piped. */
export async function mapCommand(backend: ScraperBackend, url: string, flags: MapFlags): Promise<number> {
  const result = await backend.map({
    url,
    ...(flags.limit ? { limit: flags.limit } : {}),
    search: flags.search,
  });
  const line = process.stdout.isTTY
    ? (link: string) => `${link}\n`
    : (link: string) => `${JSON.stringify({ url: link })}\n`;
  await print(result.links.map(line).join(''));
  if (result.truncated)
    process.stderr.write(`scraper: more URLs than --limit ${flags.limit ?? ''}: the first are listed\n`);
  return EXIT.ok;
}

/** Each finished page of a job once, as it comes, with the job as last read; ends with the job. */
async function* jobPages(
  backend: ScraperBackend,
  jobId: string,
): AsyncGenerator<{ view: JobView; page?: PageResult }> {
  const seen = new Set<number>();
  let cursor: string | undefined;
  for (;;) {
    const view = await backend.jobStatus(jobId, cursor ? { cursor } : {});
    const result = view.result;
    if (result && !('data' in result) && result.error)
      throw new CliError(EXIT.failure, `scraper: the crawl failed: ${result.error.message}`);
    const listed = result && 'data' in result ? result : { data: [], next: null };
    const fresh = listed.data.filter((p) => !seen.has(p.index));
    for (const page of fresh) {
      seen.add(page.index);
      yield { view, page };
    }
    if (listed.next) cursor = listed.next;
    const ended = ['completed', 'failed', 'cancelled'].includes(view.status);
    if (ended && !listed.next) return;
    if (!fresh.length) {
      yield { view };
      await sleep(250);
    }
  }
}

function pageOptions(flags: { format: CliFormat; render?: string; timeout?: number; allContent?: boolean }) {
  return {
    formats: [flags.format],
    ...(flags.render ? { render: flags.render } : {}),
    ...(flags.timeout ? { timeout: flags.timeout } : {}),
    ...(flags.allContent ? { only_main_content: false } : {}),
  };
}

async function readActions(file: string): Promise<unknown> {
  let actions: unknown;
  try {
    actions = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new CliError(EXIT.usage, `scraper: --actions ${file}: ${(err as Error).message}`);
  }
  if (!Array.isArray(actions))
    throw new CliError(EXIT.usage, `scraper: --actions ${file}: must be a JSON list of actions`);
  return actions;
}

function personLine(page: PageResult, file: string | undefined): string {
  if (page.error) return `✗ ${page.url}  ${page.error.code}: ${page.error.message}\n`;
  return `✓ ${page.url}${file ? `  → ${file}` : ''}\n`;
}
