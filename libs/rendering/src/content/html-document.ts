// First: linkedom must find our EventTarget in the module cache when it loads.
import './lazy-event-target';
import { rootsOf, walkElements } from '@app/extract';
import { parseHTML } from 'linkedom';
import { PageFailure } from '../page-errors';
import { MAX_DEPTH, MAX_ELEMENTS } from './document-bounds';
import { isHidden, shownAnyway } from './hidden-panels';
import { joinBodies } from './parser-patches';
import { placeStreamedSegments } from './streamed-segments';

/** Elements whose text is never page content: code, styling, fallbacks, embedded documents. */
const NON_CONTENT = new Set(
  'SCRIPT STYLE TEMPLATE IFRAME FRAME FRAMESET OBJECT EMBED CANVAS SVG LINK META BASE'.split(' '),
);

/** Upper case: an <svg> and its children keep theirs as written. */
const tagOf = (element: Element) => element.tagName.toUpperCase();

/** Never shown: non-content, and a dialog not opened. */
const neverShown = (element: Element) =>
  NON_CONTENT.has(tagOf(element)) || (tagOf(element) === 'DIALOG' && !element.hasAttribute('open'));

/** Attributes holding one URL, by tag. */
const URL_ATTRIBUTES: Record<string, string[]> = {
  A: ['href'],
  AREA: ['href'],
  IMG: ['src'],
  SOURCE: ['src'],
  VIDEO: ['src', 'poster'],
  AUDIO: ['src'],
  TRACK: ['src'],
  BLOCKQUOTE: ['cite'],
  Q: ['cite'],
};

/** Where lazy-loading scripts keep an image's real address until it scrolls into view. */
const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'data-url'];

/** Elements that end a line when flattened text is read (the rest run on). */
const LINE_BREAKING = new Set(
  'ADDRESS ARTICLE ASIDE BLOCKQUOTE BR DD DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR LI MAIN NAV OL P PRE SECTION TABLE TD TH TR UL'.split(
    ' ',
  ),
);
const NOT_TEXT = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'svg',
  'CANVAS',
  'IFRAME',
  'OBJECT',
]);

/** How many start tags (`<` and a letter) the markup holds: an upper bound of its elements. */
export function countStartTags(html: string): number {
  let count = 0;
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at + 1)) {
    const next = html.charCodeAt(at + 1) | 0x20;
    if (next >= 0x61 && next <= 0x7a) count++;
  }
  return count;
}

/** The text under `element`, a line per block, read without recursion. */
function flatText(element: Element): string {
  const parts: string[] = [];
  // One line break between blocks, however many end or start there.
  const lineBreak = () => parts.length && parts[parts.length - 1] !== '\n' && parts.push('\n');
  const stack: (Node | string)[] = [element];
  while (stack.length) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      lineBreak();
    } else if (item.nodeType === 3) {
      parts.push((item as Text).data);
    } else if (item.nodeType === 1 && !NOT_TEXT.has(item.nodeName)) {
      const breaks = item !== element && LINE_BREAKING.has(item.nodeName);
      if (breaks) stack.push('\n');
      const children: Node[] = [];
      for (let child = item.firstChild; child; child = child.nextSibling) children.push(child);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
      if (breaks) lineBreak();
    }
  }
  return parts.join('');
}

/** Replaces what lies deeper than `maxDepth` by its text, in the element at that depth. */
export function flattenDeeperThan(document: Document, maxDepth: number): void {
  const stack: [Element, number][] = [];
  if (document.documentElement) stack.push([document.documentElement, 1]);
  while (stack.length) {
    const [element, depth] = stack.pop()!;
    if (depth === maxDepth) {
      if (element.firstElementChild) element.textContent = flatText(element);
      continue;
    }
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      stack.push([child, depth + 1]);
    }
  }
}

/**
 * The parsed document, bounded: a page with more than MAX_ELEMENTS start tags fails TOO_COMPLEX
 * before it is parsed, and markup nested deeper than MAX_DEPTH is flattened into its text.
 */
export function parseDocument(html: string): Document {
  const tags = countStartTags(html);
  if (tags > MAX_ELEMENTS) {
    throw new PageFailure(
      'TOO_COMPLEX',
      `the document has ${tags} tags, more than the ${MAX_ELEMENTS} allowed`,
    );
  }
  const { document } = parseHTML(html);
  joinBodies(document);
  flattenDeeperThan(document, MAX_DEPTH);
  return document;
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

/**
 * Most srcset candidates kept: real ones list a few widths or densities, and resolving each
 * candidate's URL costs microseconds (a 5 MB srcset took seconds).
 */
const MAX_SRCSET_CANDIDATES = 100;

function absoluteSrcset(srcset: string, base: string): string {
  return srcset
    .split(',', MAX_SRCSET_CANDIDATES)
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
export function absolutizeUrls(document: Document, base: string): void {
  // One walk over the elements: a selector query per attribute walked the whole tree each.
  walkElements(rootsOf(document), (element) => {
    const tag = tagOf(element);
    if (tag === 'IMG') {
      const src = element.getAttribute('src') ?? '';
      const lazy = LAZY_SRC.map((name) => element.getAttribute(name)).find(Boolean);
      if (lazy && (!src || src.startsWith('data:'))) element.setAttribute('src', lazy);
    }
    for (const attribute of URL_ATTRIBUTES[tag] ?? []) {
      const value = element.getAttribute(attribute);
      if (value === null) continue;
      const url = absoluteUrl(value, base);
      if (!url || url.startsWith('javascript:')) element.removeAttribute(attribute);
      else element.setAttribute(attribute, url);
    }
    if ((tag === 'IMG' || tag === 'SOURCE') && element.hasAttribute('srcset'))
      element.setAttribute('srcset', absoluteSrcset(element.getAttribute('srcset') ?? '', base));
    return true;
  });
}

/**
 * Most characters a page may show outside its <noscript> elements for their content to count as
 * the page's: a server that renders its content only for clients without scripts (a forum's
 * crawler view) leaves the scripted page empty but for a few words.
 */
const MAX_TEXT_BESIDE_NOSCRIPT = 200;
/** Fewer characters inside them are a notice ("Please enable JavaScript"), not content. */
const MIN_TEXT_IN_NOSCRIPT = 200;

const textChars = (node: Node) => (node.textContent ?? '').replace(/\s+/g, '').length;

/** Unwraps the <noscript> elements when they hold the page's text, else removes them. */
function resolveNoscript(document: Document): void {
  const root = document.body ?? document.documentElement;
  if (!root) return;
  // The outermost ones, in one walk that does not look inside them.
  const outermost: Element[] = [];
  walkElements([root], (element) => {
    if (element.tagName !== 'NOSCRIPT') return true;
    outermost.push(element);
    return false;
  });
  if (!outermost.length) return;
  const inside = outermost.reduce((sum, element) => sum + textChars(element), 0);
  const beside = textChars(root) - inside;
  if (beside >= MAX_TEXT_BESIDE_NOSCRIPT || inside <= beside || inside < MIN_TEXT_IN_NOSCRIPT) {
    for (const element of outermost) element.remove();
    return;
  }
  for (const element of root.querySelectorAll('noscript')) {
    while (element.firstChild) element.before(element.firstChild);
    element.remove();
  }
}

/** Removes scripts, styles, fallbacks (but those that hold the page's text), embeds, hidden elements and comments. */
export function removeNonContent(document: Document): void {
  placeStreamedSegments(document);
  // Walks by hand: a selector query walked the whole tree and matched each element against it.
  walkElements(rootsOf(document), (element) => {
    if (!neverShown(element)) return true;
    element.remove();
    return false;
  });
  resolveNoscript(document);
  const panels = shownAnyway(document);
  walkElements(rootsOf(document), (element) => {
    // Not aria-hidden: modal dialogs set it on the whole page behind them.
    // A popover is hidden until its control opens it (an app's install instructions, a menu).
    if (!element.hasAttribute('hidden') && !element.hasAttribute('style') && !element.hasAttribute('popover'))
      return true;
    if (panels.has(element)) {
      // Shown, as to the reader who clicked: the main-content pick skips what is hidden.
      element.removeAttribute('hidden');
      element.removeAttribute('style');
      return true;
    }
    if (!isHidden(element)) return true;
    element.remove();
    return false;
  });
  // From the root element: linkedom gives a doctype no nextSibling, which would end the walk there.
  if (document.documentElement) removeComments(document.documentElement);
}

function removeComments(root: Node): void {
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    for (let child = node.firstChild; child;) {
      const next = child.nextSibling;
      if (child.nodeType === 8) child.remove();
      else if (child.nodeType === 1) stack.push(child);
      child = next;
    }
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
  // In document order, not looking inside a match: what is found is outermost.
  const stack: Element[] = [];
  for (let child = body.lastElementChild; child; child = child.previousElementSibling) stack.push(child);
  while (stack.length) {
    const element = stack.pop()!;
    if (matched.has(element)) container.append(element.cloneNode(true));
    else
      for (let child = element.lastElementChild; child; child = child.previousElementSibling)
        stack.push(child);
  }
  return container;
}
