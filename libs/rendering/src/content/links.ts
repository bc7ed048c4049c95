/**
 * Every http(s) link of a document whose hrefs are already absolute, in document order, without
 * fragments (they point into a page already listed) and without duplicates. Hash routes
 * (`#/about`, `#!/about`) stay: in a hash-routed app they are pages of their own.
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
    if (!/^#!?\//.test(url.hash)) url.hash = '';
    links.add(url.href);
  }
  return [...links];
}
