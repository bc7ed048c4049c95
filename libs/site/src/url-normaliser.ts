/** A URL as a crawl fetches it, and the key that tells two spellings of one page apart. */
export interface NormalisedUrl {
  /** What is fetched and reported: the first spelling seen, tidied (see normaliseUrl). */
  url: string;
  /** Dedupe key: also without the scheme and a trailing slash. */
  key: string;
}

/** `#/route` and `#!route` are client-side routes of hash-routed apps: other pages, not anchors. */
const HASH_ROUTE = /^#!?\//;

/**
 * Crawl normalisation (docs/decisions.md, Crawl): WHATWG parsing lowercases scheme and host, drops the
 * default port and resolves dot segments; on top, the fragment goes unless it is a hash route, and
 * query parameters are sorted by name (raw text kept: `a=1&b` must not become `a=1&b=`). The key
 * also drops the scheme (http and https spellings of a site are one page) and a trailing slash
 * (`/about/` and `/about` are one page; the first spelling found is the one fetched).
 * Null for anything a crawl cannot fetch: other schemes, credentials, unparsable text.
 */
export function normaliseUrl(raw: string, base?: string): NormalisedUrl | null {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null;
  if (!HASH_ROUTE.test(url.hash)) url.hash = '';
  url.search = sortedQuery(url.search);
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  return { url: url.href, key: `${url.host}${path || '/'}${url.search}${url.hash}` };
}

function sortedQuery(search: string): string {
  const pairs = search
    .slice(1)
    .split('&')
    .filter((p) => p !== '');
  const name = (pair: string) => pair.split('=', 1)[0];
  // Stable: repeated names keep their order (`a=2&a=1` is a different query from `a=1&a=2`).
  pairs.sort((x, y) => (name(x) < name(y) ? -1 : name(x) > name(y) ? 1 : 0));
  return pairs.length ? `?${pairs.join('&')}` : '';
}
