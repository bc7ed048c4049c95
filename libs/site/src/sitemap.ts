import { XMLParser } from 'fast-xml-parser';

export interface SitemapEntries {
  /** Page URLs of a `<urlset>`. */
  pages: string[];
  /** Child sitemaps of a `<sitemapindex>`. */
  sitemaps: string[];
}

const parser = new XMLParser({
  // `<sm:url>` and `<url>` alike; one entry must still come back as a list.
  removeNSPrefix: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
  parseTagValue: false,
});

const locs = (entries: unknown): string[] =>
  Array.isArray(entries)
    ? entries
        .map((e) => (e as { loc?: unknown })?.loc)
        .filter((loc): loc is string => typeof loc === 'string' && loc.trim() !== '')
        .map((loc) => loc.trim())
    : [];

/** The URLs of a sitemap or sitemap index (sitemaps.org protocol); nothing for anything else. */
export function parseSitemap(xml: string): SitemapEntries {
  let doc: { urlset?: { url?: unknown }; sitemapindex?: { sitemap?: unknown } };
  try {
    doc = parser.parse(xml) as typeof doc;
  } catch {
    return { pages: [], sitemaps: [] };
  }
  return { pages: locs(doc?.urlset?.url), sitemaps: locs(doc?.sitemapindex?.sitemap) };
}
