import { type PageResult, type ScrapeOptions, errorResult, triedOutError } from '@app/queue-contracts';
import type { RenderRequest, RenderService } from '@app/rendering';

/** How a page's tries are counted: where the count lives is the caller's (job_pages, a sync job). */
export interface TryCount {
  /** Tries in all (across workers) a page gets: PAGE_MAX_ATTEMPTS. */
  max: number;
  /**
   * Counts the next try before it starts and returns its number in all, or null when the page must
   * not be rendered (its job was cancelled, or another worker finished it).
   */
  next(): Promise<number | null>;
  onCrash(attempt: number, err: unknown): void;
}

/**
 * One rule for every try of a page, whatever ended it: a try is counted before it starts, so one
 * that takes its worker down (crash, out of memory, a stalled queue job) counts as well as one that
 * crashed the browser (a thrown render: the machinery failed, retried here on a fresh browser).
 * A page whose count is already at `max` when a worker picks it up is not rendered again: it fails
 * as RENDER_CRASH. Page errors (TIMEOUT, TOO_COMPLEX, ...) are results, never tries again.
 */
export async function renderCounted(
  renderer: RenderService,
  request: RenderRequest & { index: number },
  tries: TryCount,
): Promise<PageResult | null> {
  for (;;) {
    const attempt = await tries.next();
    if (attempt === null) return null;
    if (attempt > tries.max) {
      return errorResult(request.url, request.index, request.options, triedOutError(tries.max));
    }
    try {
      return withShape(await renderer.render(request), request.options);
    } catch (err) {
      tries.onCrash(attempt, err);
      if (attempt >= tries.max) {
        return errorResult(request.url, request.index, request.options, {
          code: 'RENDER_CRASH',
          message: `the browser crashed on try ${attempt} of ${tries.max}: ${(err as Error).message}`,
        });
      }
    }
  }
}

/**
 * Formats every page that did not fail has, whatever its kind: a text or JSON document has no
 * html or raw_html (it comes back as text), and a screenshot needs the browser.
 */
const CONTENT_FORMATS = ['markdown', 'text', 'links'] as const;

/**
 * A result is content or an error, never an empty success: a page without its error that lacks a
 * format asked for (a converter that gave up without saying so) fails as RENDER_CRASH, keeping
 * what it has.
 */
export function withShape(result: PageResult, options: ScrapeOptions): PageResult {
  if (result.error) return result;
  const missing = CONTENT_FORMATS.filter((f) => options.formats.includes(f) && result[f] === undefined);
  if (!missing.length) return result;
  return {
    ...result,
    error: { code: 'RENDER_CRASH', message: `the page's ${missing.join(', ')} could not be produced` },
  };
}
