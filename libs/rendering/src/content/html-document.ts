import { parseHTML } from 'linkedom';

/** Elements whose text is never page content: code, styling, fallbacks, embedded documents. */
const NON_CONTENT = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'canvas',
  'svg',
  'link',
  'meta',
  'base',
  'dialog:not([open])',
  // Not aria-hidden: modal dialogs set it on the whole page behind them.
  '[hidden]',
].join(',');

/** Attributes holding one URL, by selector. */
const URL_ATTRIBUTES: [string, string][] = [
  ['a[href]', 'href'],
  ['area[href]', 'href'],
  ['img[src]', 'src'],
  ['source[src]', 'src'],
  ['video[src]', 'src'],
  ['video[poster]', 'poster'],
  ['audio[src]', 'src'],
  ['track[src]', 'src'],
  ['blockquote[cite]', 'cite'],
  ['q[cite]', 'cite'],
];

/** Where lazy-loading scripts keep an image's real address until it scrolls into view. */
const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'data-url'];

export function parseDocument(html: string): Document {
  return parseHTML(html).document;
}

/** The URL relative references resolve against: the document's <base href>, else the page's URL. */
export function baseUrlOf(document: Document, pageUrl: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  return (href && absoluteUrl(href, pageUrl)) || pageUrl;
}

/** `ref` resolved against `base`, or undefined when it is not a URL at all. */
export function absoluteUrl(ref: string, base: string): string | undefined {
  try {
    return new URL(ref.trim(), base).href;
  } catch {
    return undefined;
  }
}

function absoluteSrcset(srcset: string, base: string): string {
  return srcset
    .split(',')
    .map((candidate) => {
      const [url, ...descriptor] = candidate.trim().split(/\s+/);
      return url ? [absoluteUrl(url, base) ?? url, ...descriptor].join(' ') : '';
    })
    .filter(Boolean)
    .join(', ');
}

/**
 * Rewrites every link and media reference to an absolute URL, takes lazy images' real sources, and
 * drops `javascript:` links, which lead nowhere outside the page.
 */
export function absolutizeUrls(root: ParentNode, base: string): void {
  for (const img of root.querySelectorAll('img')) {
    const src = img.getAttribute('src') ?? '';
    const lazy = LAZY_SRC.map((name) => img.getAttribute(name)).find(Boolean);
    if (lazy && (!src || src.startsWith('data:'))) img.setAttribute('src', lazy);
  }
  for (const [selector, attribute] of URL_ATTRIBUTES) {
    for (const element of root.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute) ?? '';
      const url = absoluteUrl(value, base);
      if (!url || url.startsWith('javascript:')) element.removeAttribute(attribute);
      else element.setAttribute(attribute, url);
    }
  }
  for (const element of root.querySelectorAll('img[srcset], source[srcset]')) {
    element.setAttribute('srcset', absoluteSrcset(element.getAttribute('srcset') ?? '', base));
  }
}

/** Removes scripts, styles, fallbacks, embeds, hidden elements and comments. */
export function removeNonContent(document: Document): void {
  for (const element of document.querySelectorAll(NON_CONTENT)) element.remove();
  for (const element of document.querySelectorAll('[style]')) {
    const style = (element.getAttribute('style') ?? '').replace(/\s+/g, '').toLowerCase();
    if (style.includes('display:none') || style.includes('visibility:hidden')) element.remove();
  }
  // From the root element: linkedom gives a doctype no nextSibling, which would end the walk there.
  removeComments(document.documentElement);
}

function removeComments(node: Node): void {
  for (let child = node.firstChild; child;) {
    const next = child.nextSibling;
    if (child.nodeType === 8) child.remove();
    else if (child.nodeType === 1) removeComments(child);
    child = next;
  }
}

/** Matches of a CSS selector; an invalid selector matches nothing instead of failing the page. */
export function selectAll(root: ParentNode, selector: string): Element[] {
  try {
    return [...root.querySelectorAll(selector)];
  } catch {
    return [];
  }
}

/**
 * `exclude` removes what its selectors match; `include` keeps only what its selectors match (the
 * outermost matches, in document order). Returns the element holding what is left.
 */
export function applyTagFilters(document: Document, include: string[] = [], exclude: string[] = []): Element {
  const body = document.body ?? document.documentElement;
  for (const selector of exclude) {
    for (const element of selectAll(body, selector)) element.remove();
  }
  if (include.length === 0) return body;
  const matched = new Set(include.flatMap((selector) => selectAll(body, selector)));
  const container = document.createElement('div');
  for (const element of body.querySelectorAll('*')) {
    if (!matched.has(element)) continue;
    let outermost = true;
    for (let parent = element.parentElement; parent && outermost; parent = parent.parentElement) {
      if (matched.has(parent)) outermost = false;
    }
    if (outermost) container.append(element.cloneNode(true));
  }
  return container;
}
