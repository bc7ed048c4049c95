import type { PageResult, ScrapeOptions } from '@app/queue-contracts';
import type { RenderRequest, RenderService } from '@app/rendering';

/** Attempts of one page before it fails as RENDER_CRASH (crashes are retried). */
export const PAGE_ATTEMPTS = 3;

/**
 * A page of a job rendered to a result. Page errors come back as results; a thrown error is a
 * crash, retried on a fresh browser, and after PAGE_ATTEMPTS it becomes the page's RENDER_CRASH.
 */
export async function renderWithRetries(
  renderer: RenderService,
  request: RenderRequest & { index: number },
  onCrash: (attempt: number, err: unknown) => void,
): Promise<PageResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await renderer.render(request);
    } catch (err) {
      onCrash(attempt, err);
      if (attempt >= PAGE_ATTEMPTS) {
        return errorResult(request.url, request.index, request.options, {
          code: 'RENDER_CRASH',
          message: `the browser crashed ${PAGE_ATTEMPTS} times: ${(err as Error).message}`,
        });
      }
    }
  }
}

/** A page result that carries only an error: nothing was fetched, or nothing came back. */
export function errorResult(
  url: string,
  index: number,
  options: ScrapeOptions,
  error: NonNullable<PageResult['error']>,
): PageResult {
  return {
    index,
    url,
    final_url: null,
    status_code: null,
    metadata: { title: null, description: null, language: null, canonical_url: null, engine: options.engine },
    timings: { total_ms: 0, render_ms: 0 },
    error,
  };
}
