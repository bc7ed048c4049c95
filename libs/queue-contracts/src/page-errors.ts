import { NO_METADATA, RENDERED_NOW, type PageResult, type ScrapeOptions } from './scrape-options';

type PageError = NonNullable<PageResult['error']>;

/** A page result that carries only an error: nothing was fetched, or nothing came back. */
export function errorResult(
  url: string,
  index: number,
  options: ScrapeOptions,
  error: PageError,
): PageResult {
  return {
    index,
    url,
    final_url: null,
    status_code: null,
    metadata: { ...NO_METADATA, engine: options.engine, ...RENDERED_NOW },
    timings: { total_ms: 0, render_ms: 0 },
    error,
  };
}

/** A page whose every try (PAGE_MAX_ATTEMPTS of them) was lost with its browser or worker. */
export function triedOutError(maxAttempts: number): PageError {
  return {
    code: 'RENDER_CRASH',
    message: `the page was tried ${maxAttempts} times and each try was lost with its browser or worker (crash, out of memory or stalled); it is not tried again`,
  };
}
