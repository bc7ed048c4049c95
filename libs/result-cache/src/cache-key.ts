import { createHash } from 'node:crypto';
import type { ScrapeOptions } from '@app/queue-contracts';

/**
 * Whether a request's pages may be served from the cache or written to it: not with actions (their
 * results are the point), the caller's headers (content only they may see) or a session (its state
 * changes with every page).
 */
export function cacheable(options: ScrapeOptions): boolean {
  return !options.actions?.length && !options.headers && !options.sealed_headers && !options.session_id;
}

/**
 * The cache key of a page within its owner: the URL without its fragment, and every option that
 * changes what comes back, in a fixed order (formats as a set). `timeout` and `max_age` change
 * when, not what. Hashed: a customer's proxy credentials are part of it.
 */
export function cacheDigest(url: string, options: ScrapeOptions): string {
  const target = new URL(url);
  target.hash = '';
  const { proxy } = options;
  const parts = [
    1,
    target.href,
    [...options.formats].sort(),
    options.only_main_content,
    options.render,
    options.engine,
    options.wait_for ?? null,
    options.include_tags ?? null,
    options.exclude_tags ?? null,
    options.mobile,
    options.block_resources,
    typeof proxy === 'object' ? [proxy.url, proxy.username ?? null, proxy.password ?? null] : (proxy ?? null),
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
