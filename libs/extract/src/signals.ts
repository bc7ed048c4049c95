/**
 * What marks an element as boilerplate or as content, from its tag, ARIA role and class or id:
 * the signals every open extractor reads (Readability's unlikely/positive candidates, trafilatura's
 * discard lists), as words, never as sites.
 */

/** Tags that hold navigation, chrome or controls, not content. */
const CHROME_TAGS = new Set([
  'NAV',
  'ASIDE',
  'FOOTER',
  'HEADER',
  'MENU',
  'SELECT',
  'BUTTON',
  'TEXTAREA',
  'INPUT',
]);

/**
 * A <header> inside these heads its section (a title and its lead), not the page: only the page's
 * own is a banner, as ARIA maps them.
 */
const SECTIONING = 'article, section, main, [role="main"], [role="article"]';

const CHROME_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'toolbar',
  'tooltip',
]);

/** Words in a class or id that name chrome, matched against each token, its first and its last part. */
const CHROME_WORDS = new Set(
  (
    'nav navbar navigation menu menubar submenu breadcrumb breadcrumbs sidebar footer header masthead ' +
    'banner announcement toolbar sorting sortby newsletter subscribe subscription share sharing social socials ' +
    'related recommended recommendations promo promotion advert advertisement ads ad sponsor sponsored ' +
    'skip pagination pager toc respond login signin signup search filter filters ' +
    'facet facets tags tagcloud byline disclaimer copyright outbrain taboola signature postprofile'
  ).split(' '),
);

/**
 * Chrome words of a post's own parts (its author's signature and profile): under each post of a
 * thread, as much text as a short post, so their share of the page says little.
 */
const POST_CHROME_WORDS = new Set(['signature', 'postprofile']);

/** Words that say the element holds content: they win over CHROME_WORDS in the same name. */
const CONTENT_WORDS = new Set(
  (
    'article content main post entry story body text product description thread topic message question ' +
    'answer answers docs doc documentation markdown prose results listing'
  ).split(' '),
);

/** Class and id read this far: a page can put megabytes in one attribute. */
const MAX_NAME_CHARS = 300;

/** The element's class and id, as written, within MAX_NAME_CHARS. */
export const classAndId = (element: Element) =>
  `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`.slice(0, MAX_NAME_CHARS);

/**
 * State modifiers ("has-sidebar", "no-banner", "hide-read-more-ad") say what is around the element
 * or what to do with it, not what it is; inside a token ("section-with-header") they end its name.
 */
const MODIFIER = /^(has|with|no|show|hide|is|not)$/;

/** Words naming a search's results, in any part of a token: a listing's content, though "search" is chrome. */
const RESULT_WORDS = new Set(['result', 'results']);

/** Words that mark chrome however much text it holds: a consent dialog can outweigh the article. */
const OVERLAY_WORDS = new Set('cookie cookies consent gdpr onetrust modal popup'.split(' '));

/** Words that name readers' comments: the content of a discussion, noise below an article. */
const COMMENT_WORDS = new Set('comment comments commentlist commentlisting disqus replies'.split(' '));

/**
 * Whole class names that hide an element by the page's own stylesheet, the screen-reader-only text
 * of the design systems and CMSs among them (a label's copy: "Seller's other items" twice).
 */
const HIDING_CLASSES = new Set(
  (
    'hide hidden is-hidden d-none invisible visually-hidden visuallyhidden sr-only screen-reader-text ' +
    'screen-reader-only screenreader-only element-invisible u-visually-hidden assistive-text clipped'
  ).split(' '),
);

/**
 * A utility class's "hidden" under a framework's short prefix ("u-hidden", "js-hidden"); not a
 * breakpoint's ("md-hidden" hides on one screen size only).
 */
const PREFIXED_HIDING_CLASS = /^(?!(xs|sm|md|lg|xl)-)[a-z]{1,3}-hidden$/;

/** Chrome words that mark navigation: they remove a block only when links make up much of it. */
const NAVIGATION_WORDS = new Set(
  'nav navbar navigation menu menubar submenu breadcrumb breadcrumbs sidebar toc pagination pager tags tagcloud related recommended recommendations share sharing social socials filter filters facet facets'.split(
    ' ',
  ),
);

/** Navigation words that name a menu: made of links alone, it goes whatever it holds, as a <nav>. */
const MENU_WORDS = new Set('nav navbar navigation menu menubar submenu'.split(' '));

export interface Names {
  /** Each class or id token, and its first part ("nav" in "nav-main-menu"). */
  heads: string[];
  /** Each token's last part ("menu" in "nav-main-menu"). */
  tails: string[];
  /**
   * First parts that only qualify a chrome word: "entry" in "entry-meta", "post" in "post-footer"
   * name what the chrome belongs to, not content. Not for a header, which heads its section.
   */
  qualifiers: string[];
}

/**
 * Words of a byline's parts: an article's date, author and picture credits are not its text, but a
 * listing's or a thread's describe each entry.
 */
const BYLINE_WORDS = new Set('postmeta date dateline timestamp author credit credits'.split(' '));

/**
 * Byline words only as what a token ends with ("entry-meta", "post-meta"): alone, "meta" also classes a
 * listing's entries (a paper's title and authors).
 */
const TAIL_BYLINE_WORDS = new Set(['meta']);

/** Chrome words a qualified token may end with and stay chrome (a header holds its section's title). */
const QUALIFIED_CHROME = new Set(
  [...CHROME_WORDS, ...BYLINE_WORDS, ...TAIL_BYLINE_WORDS].filter(
    (word) => !/^(header|masthead|banner)$/.test(word),
  ),
);

/** The words of the element's class and id tokens, not those inside them, which are mostly layout. */
export function names(element: Element): Names {
  const found: Names = { heads: [], tails: [], qualifiers: [] };
  for (const token of classAndId(element).toLowerCase().split(/\s+/)) {
    const all = token.split(/[-_]+/).filter(Boolean);
    const modifier = all.findIndex((part) => MODIFIER.test(part));
    if (!all.length || modifier === 0) continue;
    const parts = modifier > 0 ? all.slice(0, modifier) : all;
    if (parts.some((part) => RESULT_WORDS.has(part))) found.heads.push('results');
    found.heads.push(modifier > 0 ? parts.join('-') : token);
    if (parts.length > 1) {
      found.heads.push(parts[0]);
      found.tails.push(parts[parts.length - 1]);
      if (QUALIFIED_CHROME.has(parts[parts.length - 1])) found.qualifiers.push(parts[0]);
    }
  }
  return found;
}

export type Signal =
  | 'hidden'
  | 'overlay'
  | 'navigation'
  | 'comments'
  | 'chrome-tag'
  | 'page-footer'
  | 'navigation-name'
  | 'menu-name'
  | 'chrome-name'
  | 'post-chrome'
  | 'byline-name'
  | 'content'
  | 'none';

/** The strongest signal an element's own markup gives. */
export function signalOf(element: Element): Signal {
  const role = element.getAttribute('role');
  if (element.tagName === 'NAV' || role === 'navigation') return 'navigation';
  const footer = element.tagName === 'FOOTER' && !element.closest(SECTIONING);
  if (role === 'contentinfo' || footer) return 'page-footer';
  if (role && CHROME_ROLES.has(role)) return 'chrome-tag';
  if (CHROME_TAGS.has(element.tagName) && !(element.tagName === 'HEADER' && element.closest(SECTIONING)))
    return 'chrome-tag';
  if (element.getAttribute('aria-modal') === 'true') return 'chrome-tag';
  const className = (element.getAttribute('class') ?? '').slice(0, MAX_NAME_CHARS).toLowerCase();
  for (const name of className.split(/\s+/))
    if (HIDING_CLASSES.has(name) || PREFIXED_HIDING_CLASS.test(name)) return 'hidden';
  const { heads, tails, qualifiers } = names(element);
  const all = [...heads, ...tails];
  const isContent = (word: string) => CONTENT_WORDS.has(word);
  if (all.filter(isContent).length > qualifiers.filter(isContent).length) return 'content';
  // A paragraph's link so named opens a dialog, it is none: its words are the sentence's.
  const inSentence = element.tagName === 'A' && element.parentElement?.tagName === 'P';
  if (!inSentence && heads.some((word) => OVERLAY_WORDS.has(word))) return 'overlay';
  if (all.some((word) => COMMENT_WORDS.has(word))) return 'comments';
  const chrome = all.find((word) => CHROME_WORDS.has(word));
  if (chrome && all.some((word) => POST_CHROME_WORDS.has(word))) return 'post-chrome';
  if (chrome && MENU_WORDS.has(chrome)) return 'menu-name';
  if (chrome) return NAVIGATION_WORDS.has(chrome) ? 'navigation-name' : 'chrome-name';
  if (all.some((word) => BYLINE_WORDS.has(word)) || tails.some((word) => TAIL_BYLINE_WORDS.has(word)))
    return 'byline-name';
  return 'none';
}
