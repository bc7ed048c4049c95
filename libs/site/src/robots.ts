import { Logger } from '@nestjs/common';
import robotsParser from 'robots-parser';
import { AddressPolicy, FetchFailedError, HostResolver, type UpstreamProxy } from '@app/net-guard';
import { fetchSiteFile } from './site-file';

/** The product token matched against `User-agent:` lines; groups for `*` apply otherwise. */
export const CRAWLER_TOKEN = 'ScraperClusterBot';

/** What a site's robots.txt says to this crawler. */
export interface Robots {
  /** Why a disallowed URL is not fetched (reported as BLOCKED_ROBOTS), or true. */
  check(url: string): true | string;
  /** Crawl-delay in ms, when the file sets one. */
  delayMs: number | null;
  sitemaps: string[];
}

/** A robots.txt as read: its text, or that there is none (allow all) or it is unavailable (deny all). */
export interface RobotsFile {
  kind: 'file' | 'none' | 'unavailable';
  text?: string;
  status?: number;
  /** Not to be kept: the proxy failed, and the next caller asks again. */
  unkept?: true;
}

const logger = new Logger('Robots');

/**
 * Reads `origin`'s robots.txt as Google does: 4xx means no rules; 5xx or 429 means the whole site
 * is off limits for now; no answer at all (DNS, refused address, past `timeoutMs`) means no rules,
 * and the page fetch then reports the real error. An upstream proxy failing (PROXY) says nothing
 * of the site, so that "no rules" is marked `unkept`.
 */
export async function readRobotsFile(
  origin: string,
  net: { policy: AddressPolicy; resolver: HostResolver; upstream?: UpstreamProxy },
  maxBytes: number,
  timeoutMs: number,
): Promise<RobotsFile> {
  try {
    const { status, text } = await fetchSiteFile(`${origin}/robots.txt`, net, maxBytes, timeoutMs);
    if (status >= 200 && status < 300) return { kind: 'file', text };
    if (status === 429 || status >= 500) return { kind: 'unavailable', status };
    return { kind: 'none' };
  } catch (err) {
    logger.debug({ origin, err }, 'robots.txt not read');
    return err instanceof FetchFailedError && err.pageCode === 'PROXY'
      ? { kind: 'none', unkept: true }
      : { kind: 'none' };
  }
}

export function toRobots(origin: string, file: RobotsFile): Robots {
  if (file.kind === 'unavailable') {
    return {
      check: () => `robots.txt answered ${file.status}: the site is off limits until it answers`,
      delayMs: null,
      sitemaps: [],
    };
  }
  if (file.kind === 'none') return { check: () => true, delayMs: null, sitemaps: [] };
  const parsed = robotsParser(`${origin}/robots.txt`, file.text ?? '');
  const delay = parsed.getCrawlDelay(CRAWLER_TOKEN);
  return {
    check: (url) => parsed.isDisallowed(url, CRAWLER_TOKEN) !== true || 'disallowed by robots.txt',
    delayMs: typeof delay === 'number' && delay > 0 ? delay * 1000 : null,
    sitemaps: parsed.getSitemaps(),
  };
}
