/**
 * Every http(s) link of a document whose hrefs are already absolute, in document order, without
 * fragments (they point into a page already listed) and without duplicates.
 */
export function extractLinks(root: ParentNode): string[] {
  const links = new Set<string>();
  for (const anchor of root.querySelectorAll('a[href], area[href]')) {
    let url: URL;
    try {
      url = new URL(anchor.getAttribute('href') ?? '');
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    url.hash = '';
    links.add(url.href);
  }
  return [...links];
}
