import type { PageResult } from '@app/queue-contracts';

/** What `scraper` exits with (docs/cli.md, Exit codes); each failure has its own. */
export const EXIT = {
  ok: 0,
  /** The machinery failed: no browser could start, an unexpected error. */
  failure: 1,
  /** A bad command line: unknown flag, bad value, missing argument. */
  usage: 2,
  /** The page (or every page of a crawl) failed: HTTP error, timeout, DNS, ... */
  page: 3,
  /** The address policy refused the target (a private address, say). */
  refused: 4,
  /** The cluster refused the request (`--api`): bad key, quota, validation, or it could not be reached. */
  api: 5,
} as const;

/** A failure with its exit code and the one line the user reads on stderr. */
export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The exit code a failed page calls for. */
export function pageExitCode(error: NonNullable<PageResult['error']>): number {
  return error.code === 'BLOCKED_ADDRESS' ? EXIT.refused : EXIT.page;
}

/** One line on stderr naming the page's error and how to open a refused address. */
export function pageErrorLine(url: string, error: NonNullable<PageResult['error']>): string {
  const hint =
    error.code === 'BLOCKED_ADDRESS'
      ? ' (private addresses are refused: pass --allow-cidr CIDR or --allow-private, or set NET_ALLOW_CIDRS)'
      : '';
  return `scraper: ${url}: ${error.code}: ${error.message}${hint}`;
}
