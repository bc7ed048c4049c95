import type { MapResult, MapSettings } from '@app/queue-contracts';
import { CrawlScope } from './crawl-scope';
import { normaliseUrl } from './url-normaliser';

/**
 * What a map lists of the URLs it found (start URL first, then in discovery order): normalised
 * and deduplicated as a crawl does, kept to a crawl's host scope, those holding more of `search`'s
 * words (case-insensitive, in the decoded URL) first, the first `limit` of them.
 */
export function mapLinks(startUrl: string, found: string[], settings: MapSettings): MapResult {
  const scope = new CrawlScope(startUrl, {
    include_paths: [],
    exclude_paths: [],
    allow_subdomains: settings.allow_subdomains,
    allow_external_links: false,
  });
  const byKey = new Map<string, string>();
  for (const raw of [startUrl, ...found]) {
    const n = normaliseUrl(raw);
    if (n && !byKey.has(n.key) && scope.judge(new URL(n.url)) === null) byKey.set(n.key, n.url);
  }
  const ranked = rankBySearch([...byKey.values()], settings.search);
  return { links: ranked.slice(0, settings.limit), truncated: ranked.length > settings.limit };
}

/** Ties, and URLs holding none of the words, keep their order; no words, no change. */
function rankBySearch(urls: string[], search: string | undefined): string[] {
  const words = (search ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (!words.length) return urls;
  const scored = urls.map((url, i) => {
    const text = decoded(url).toLowerCase();
    return { url, i, score: words.filter((w) => text.includes(w)).length };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.map((s) => s.url);
}

function decoded(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
