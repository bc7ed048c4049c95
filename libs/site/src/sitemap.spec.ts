import { parseSitemap } from './sitemap';

describe('parseSitemap', () => {
  it('reads the page URLs of a urlset, entities decoded and spaces trimmed', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc> http://h.test/a?x=1&amp;y=2 </loc><lastmod>2024-01-01</lastmod></url>
        <url><loc>http://h.test/b</loc></url>
      </urlset>`;
    expect(parseSitemap(xml)).toEqual({
      pages: ['http://h.test/a?x=1&y=2', 'http://h.test/b'],
      sitemaps: [],
    });
  });

  it('reads the child sitemaps of an index, one entry too', () => {
    const xml = `<sitemapindex><sitemap><loc>http://h.test/s1.xml</loc></sitemap></sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({ pages: [], sitemaps: ['http://h.test/s1.xml'] });
  });

  it('accepts namespace prefixes', () => {
    const xml = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>http://h.test/p</sm:loc></sm:url></sm:urlset>`;
    expect(parseSitemap(xml).pages).toEqual(['http://h.test/p']);
  });

  it('gives nothing for HTML, broken XML or entries without loc', () => {
    expect(parseSitemap('<html><body>Not a sitemap</body></html>')).toEqual({ pages: [], sitemaps: [] });
    expect(parseSitemap('garbage <<')).toEqual({ pages: [], sitemaps: [] });
    expect(parseSitemap('<urlset><url><lastmod>x</lastmod></url></urlset>')).toEqual({
      pages: [],
      sitemaps: [],
    });
  });
});
