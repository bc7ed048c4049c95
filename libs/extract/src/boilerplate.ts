import type { PageKind } from './profile';
import { names, type Signal, signalOf } from './signals';
import type { TextStats } from './text-stats';
import { childElements, walkElements } from './walk';

/**
 * Largest share of the page's text an element marked as chrome may hold and still be removed: past
 * it the mark is a wrapper's (a whole page inside <form>, a body classed "has-sidebar").
 */
const MAX_CHROME_TAG_SHARE = 0.5;

/**
 * A class name is a weaker mark than a tag: it removes a block holding up to this share of the
 * text, or up to MAX_CHROME_NAME_SHARE when links make up MIN_CHROME_LINK_DENSITY of its text; a
 * navigation name (menu, toc, related) only the latter.
 */
const MAX_QUIET_CHROME_SHARE = 0.1;
const MAX_CHROME_NAME_SHARE = 0.3;
const MIN_CHROME_LINK_DENSITY = 0.4;

/**
 * A menu's name on a block made of links alone: it goes whatever it holds, as a <nav> does (a
 * language picker's hundreds of entries can outweigh a listing).
 */
const MIN_MENU_LINK_DENSITY = 0.9;

/**
 * Readers' comments below a page that does not say it is an article or a discussion (a blog without
 * JSON-LD) go when all of them hold less than this share of its text; past it they are likely its
 * content (a thread).
 */
const MAX_QUIET_COMMENTS_SHARE = 0.4;

/**
 * Below this many characters outside its comments, a page that says it is an article has nothing
 * of its own to read (a link aggregator's story: a title and a link): the comments are its content.
 */
const MIN_OWN_CHARS = 500;

function removable(signal: Signal, stats: TextStats | undefined, total: number, kind: PageKind): boolean {
  // A menu can outweigh the page (a mega menu of every category).
  if (signal === 'overlay' || signal === 'navigation' || signal === 'hidden') return true;
  // A page's footer too: a list of every city served, a page of footnotes.
  if (signal === 'page-footer') return true;
  const share = (stats?.chars ?? 0) / total;
  if (signal === 'chrome-tag') return share < MAX_CHROME_TAG_SHARE;
  const density = stats && stats.chars ? stats.linkChars / stats.chars : 0;
  if (signal === 'menu-name' && density >= MIN_MENU_LINK_DENSITY) return true;
  if (signal === 'navigation-name' || signal === 'menu-name')
    return share < MAX_CHROME_NAME_SHARE && density >= MIN_CHROME_LINK_DENSITY;
  if (signal === 'post-chrome') return share < MAX_CHROME_NAME_SHARE;
  if (signal === 'byline-name') return kind === 'article' && share < MAX_QUIET_CHROME_SHARE;
  if (signal !== 'chrome-name') return false; // comments are weighed by removeChrome
  return (
    share < MAX_QUIET_CHROME_SHARE || (share < MAX_CHROME_NAME_SHARE && density >= MIN_CHROME_LINK_DENSITY)
  );
}

const HEADING = /^H[1-6]$/;

/** Name signals: a class or id's words, weaker than a tag or a role. */
const NAME_SIGNALS = new Set<Signal>([
  'navigation-name',
  'menu-name',
  'chrome-name',
  'byline-name',
  'post-chrome',
]);

/**
 * Whether a class or id names a part of a heading (a link back to the table of contents,
 * `<h2><a class="toc-backref">Setting up</a></h2>`): its text is the section's title, whatever
 * its class says.
 */
const inHeading = (element: Element, signal: Signal) =>
  NAME_SIGNALS.has(signal) && !!element.parentElement?.closest('h1, h2, h3, h4, h5, h6');

/**
 * A heading, or a block holding one heading and no other text: a section's title, whatever its
 * class says (`<div class="module-header"><h2>...</h2></div>`). A page's header holds more.
 */
function isSectionTitle(element: Element, stats: Map<Element, TextStats>): boolean {
  if (HEADING.test(element.tagName)) return true;
  const only = element.firstElementChild;
  return (
    !!only &&
    only === element.lastElementChild &&
    HEADING.test(only.tagName) &&
    stats.get(only)?.chars === stats.get(element)?.chars
  );
}

/** A head's lead is prose: past this share of links it is a menu beside a title. */
const MAX_HEAD_LINK_DENSITY = 0.2;

/**
 * A block named a header that holds a title heading and prose ("category-header": a collection's
 * name and its description): the head of the content. A page's header is mostly links.
 */
function isContentHead(element: Element, stats: Map<Element, TextStats>): boolean {
  const { chars = 0, linkChars = 0 } = stats.get(element) ?? {};
  if (!chars || linkChars > MAX_HEAD_LINK_DENSITY * chars) return false;
  const { heads, tails } = names(element);
  if (![...heads, ...tails].includes('header')) return false;
  const heading = element.querySelector('h1, h2');
  return !!heading && (stats.get(heading)?.chars ?? 0) < chars;
}

/** What a reader sees of an element without text. */
const MEDIA_TAGS =
  'img picture video audio iframe svg canvas object embed input select textarea button'.split(' ');
const MEDIA = MEDIA_TAGS.join(', ');
const MEDIA_TAG = new Set(MEDIA_TAGS.map((tag) => tag.toUpperCase()));

/**
 * An element that shows nothing (an ad's or a widget's empty slot): removing it changes nothing a
 * reader sees, only the tree Readability weighs next (a story left an only child is climbed out of).
 */
function blank(element: Element, stats: Map<Element, TextStats>): boolean {
  return (
    !stats.get(element)?.chars &&
    !MEDIA_TAG.has(element.tagName.toUpperCase()) &&
    !element.querySelector(MEDIA)
  );
}

/** Titled articles looked for: a page's own story is one. */
const MAX_TITLED_ARTICLES = 4;

/**
 * What holds an article titled by an h1: a dialog among them is the page's story opened over a
 * stream of others (a news site's modal reader), not a banner. No consent dialog holds one.
 */
function titledArticleHolders(root: Element): Set<Element> {
  const holders = new Set<Element>();
  for (const h1 of [...root.querySelectorAll('article h1')].slice(0, MAX_TITLED_ARTICLES))
    for (let at = h1.parentElement; at && at !== root && !holders.has(at); at = at.parentElement)
      holders.add(at);
  return holders;
}

/**
 * Removes navigation, headers, footers, sidebars, banners, dialogs and controls, read from tags,
 * roles and class names; top down: what is removed is not looked into. Readers' comments go on an
 * article, and on other pages when they are a small part of the page; never on a discussion, whose
 * posts they are. Returns whether readers' comments were kept as the page's content.
 */
export function removeChrome(root: Element, stats: Map<Element, TextStats>, kind: PageKind): boolean {
  const total = Math.max(1, stats.get(root)?.chars ?? 0);
  // The page's own <main> and what holds it stay, whatever their names say.
  const kept = new Set<Element>();
  for (let main = root.querySelector('main, [role="main"]'); main && main !== root; main = main.parentElement)
    kept.add(main);
  const holders = titledArticleHolders(root);
  const comments: Element[] = [];
  let commentChars = 0;
  const walk = (roots: Element[], weighComments: boolean) =>
    walkElements(roots, (element) => {
      let signal = kept.has(element) ? 'none' : signalOf(element);
      if (signal === 'overlay' && holders.has(element)) signal = 'none';
      if (signal === 'comments' && weighComments) {
        // Weighed all together once the walk is done: each comment alone is a small part of a thread.
        comments.push(element);
        commentChars += stats.get(element)?.chars ?? 0;
        return false;
      }
      if (
        removable(signal, stats.get(element), total, kind) &&
        !inHeading(element, signal) &&
        !(signal === 'chrome-name' && (isSectionTitle(element, stats) || isContentHead(element, stats)))
      ) {
        if (!blank(element, stats)) element.remove();
        return false;
      }
      return true;
    });
  walk(childElements(root), kind !== 'discussion');
  const quiet =
    kind === 'article'
      ? total - commentChars >= MIN_OWN_CHARS
      : commentChars < MAX_QUIET_COMMENTS_SHARE * total;
  if (quiet) for (const element of comments) element.remove();
  else
    walk(
      comments.flatMap((comment) => [...comment.children]),
      false,
    );
  return comments.length > 0 && !quiet;
}
