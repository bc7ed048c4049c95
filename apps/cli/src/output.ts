import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutputFormat, PageResult } from '@app/queue-contracts';

/** The formats the CLI prints, each one of the API's `formats`. */
export const CLI_FORMATS = ['markdown', 'html', 'text', 'links', 'screenshot'] as const;
export type CliFormat = (typeof CLI_FORMATS)[number] & OutputFormat;

const EXTENSIONS: Record<CliFormat, string> = {
  markdown: 'md',
  html: 'html',
  text: 'txt',
  links: 'txt',
  screenshot: 'png',
};

/** A page's content in one format, as a file or stdout takes it (a screenshot as PNG bytes). */
export function pageContent(page: PageResult, format: CliFormat): string | Buffer {
  switch (format) {
    case 'links':
      return (page.links ?? []).map((link) => `${link}\n`).join('');
    case 'screenshot':
      return Buffer.from(page.screenshot ?? '', 'base64');
    default:
      return page[format] ?? '';
  }
}

/**
 * A file name for a crawled page, safe on any file system: its position in the crawl (so two
 * URLs that read alike never share a file), then its host and path with anything but letters,
 * digits, dots and dashes turned into dashes, cut to a length every system takes.
 */
export function pageFileName(url: string, index: number, format: CliFormat): string {
  const { host, pathname, search } = new URL(url);
  const slug = `${host}${pathname}${search}`
    .replace(/[^A-Za-z0-9.-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 100);
  return `${String(index).padStart(4, '0')}-${slug || 'page'}.${EXTENSIONS[format]}`;
}

/** Writes a crawled page's content into `dir`; the file's path. */
export async function writePage(dir: string, page: PageResult, format: CliFormat): Promise<string> {
  const file = path.join(dir, pageFileName(page.final_url ?? page.url, page.index, format));
  await writeFile(file, pageContent(page, format));
  return file;
}

/** Writes to stdout and waits until it is handed to the system (a pipe is written asynchronously). */
export function print(data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) =>
    process.stdout.write(data, (err) => (err ? reject(err) : resolve())),
  );
}

/** A page result as one JSON line, its content replaced by the file it went to when it has one. */
export function pageLine(page: PageResult, file?: string): string {
  if (!file) return `${JSON.stringify(page)}\n`;
  const { markdown: _m, html: _h, raw_html: _r, text: _t, screenshot: _s, ...rest } = page;
  return `${JSON.stringify({ ...rest, file })}\n`;
}
