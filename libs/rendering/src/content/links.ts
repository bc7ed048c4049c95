/** LINKS_MAX_PER_PAGE's default. */
export const DEFAULT_MAX_LINKS = 10_000;

/**
 * The http(s) links of a document whose hrefs are already absolute, in document order, without
 * fragments (they point into a page already listed) and without duplicates, the first `max` of
 * them: a page of a million anchors costs no more than one of `max`. Hash routes (`#/about`,
 * `#!/about`) stay: in a hash-routed app they are pages of their own.
 */
export function extractLinks(root: ParentNode, max = DEFAULT_MAX_LINKS): string[] {
  const links = new Set<string>();
  for (const anchor of root.querySelectorAll('a[href], area[href]')) {
    if (links.size >= max) break;
    let url: URL;
    try {
      url = new URL(anchor.getAttribute('href') ?? '');
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    if (!/^#!?\//.test(url.hash)) url.hash = '';
    links.add(url.href);
  }
  return [...links];
}
