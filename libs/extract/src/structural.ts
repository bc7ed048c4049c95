import type { TextStats } from './text-stats';
import { childElements, walkElements } from './walk';

/** Link text counts this much toward an element's weight: cards and listings are links too. */
const LINK_WEIGHT = 0.3;

/** The root descends into a child while the child holds at least this share of the page's weight. */
const COVERAGE = 0.75;

/** A block with more link text than this share is navigation, unless it is a repeated item. */
const MAX_LINK_DENSITY = 0.6;

/** Link-dense blocks holding more than this share of the root's weight stay (a listing's grid). */
const MAX_PRUNED_SHARE = 0.25;

/** Siblings sharing a tag and class that make an element an item of a repeated structure. */
const MIN_REPEATS = 3;

const weight = (stats: TextStats | undefined) =>
  stats ? stats.chars - stats.linkChars + LINK_WEIGHT * stats.linkChars : 0;

/**
 * Elements whose markdown needs the element itself, so the root is never one of them or inside
 * one: the root's children are converted, and a table's rows alone lose their table. A link too:
 * its text is weighed as a link's at the link only, so any block inside it outweighs it.
 */
const WHOLE = new Set(['TABLE', 'PRE', 'BLOCKQUOTE', 'DL', 'FIGURE', 'A']);

/**
 * The deepest element still holding COVERAGE of the page's weight, outside every WHOLE one, and
 * holding `keep` when given (a product's title, beside the description that outweighs it).
 */
export function coverageRoot(body: Element, stats: Map<Element, TextStats>, keep?: Element | null): Element {
  const floor = COVERAGE * weight(stats.get(body));
  let root = body;
  for (;;) {
    let best: Element | undefined;
    let bestWeight = 0;
    for (let child = root.firstElementChild; child; child = child.nextElementSibling) {
      const w = weight(stats.get(child));
      if (w > bestWeight) [best, bestWeight] = [child, w];
    }
    if (!best || bestWeight < floor || WHOLE.has(best.tagName) || (keep && !best.contains(keep))) return root;
    root = best;
  }
}

/** Blocks that may be pruned; inline elements (a link in a sentence) never are. */
const BLOCKS = new Set(['DIV', 'SECTION', 'UL', 'OL', 'LI', 'DL', 'TABLE', 'P', 'SPAN']);

/** Class attributes read this far: a page can put megabytes in one. */
const MAX_CLASS_CHARS = 300;

/** Class tokens that tell one item from its siblings (an id, a position in a row), not its kind. */
const PER_ITEM_TOKEN = /\d|^.$|^(first|last|odd|even|active|current|selected)$/;

/** An element's tag and class, without the tokens that differ from one item to the next. */
export function signature(element: Element): string {
  const tokens = (element.getAttribute('class') ?? '').slice(0, MAX_CLASS_CHARS).split(/\s+/);
  return `${element.tagName}.${tokens.filter((token) => !PER_ITEM_TOKEN.test(token)).join(' ')}`;
}

/** Counts of its children's signatures, per parent, each parent read once. */
class Repeats {
  private readonly counts = new Map<Element, Map<string, number>>();

  isItem(element: Element): boolean {
    const parent = element.parentElement;
    if (!parent) return false;
    let counts = this.counts.get(parent);
    if (!counts) {
      counts = new Map();
      for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
        const key = signature(child);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      this.counts.set(parent, counts);
    }
    return (counts.get(signature(element)) ?? 0) >= MIN_REPEATS;
  }
}

/** A card's parts (a product's, a story's, a result's), which a menu's entry lacks: a picture or a title. */
const CARD_PARTS = 'img, picture, h2, h3, h4, h5, h6';

/** Headings that title a card or a story. */
const TITLE_HEADINGS = 'h1, h2, h3, h4, h5, h6';

/** Levels below a block searched for its cards: a grid's cards sit in a row or a list in it. */
const CARD_DEPTH = 3;

/** Share of a link-dense block's text in cards past which the block is a grid, not navigation. */
const MIN_CARD_SHARE = 0.5;

/** Fewer cards are a strip beside an article's text (related stories), not a grid. */
export const MIN_CARDS = 10;

/** On a page that is no article (a shop's home, a collection), a row of cards is its content. */
export const MIN_ROW_CARDS = 3;

/** A classed repeated item with a picture or a title. */
function isCard(element: Element, repeats: Repeats): boolean {
  return element.hasAttribute('class') && repeats.isItem(element) && !!element.querySelector(CARD_PARTS);
}

/**
 * Whether `block` is a grid of cards: `minCards` of them, a few levels down, holding most of its
 * text. Each level is read once and a card's subtree is not entered: linear in the block.
 */
function holdsCards(
  block: Element,
  stats: Map<Element, TextStats>,
  repeats: Repeats,
  minCards: number,
): boolean {
  let cardChars = 0;
  let cards = 0;
  let level: Element[] = [block];
  for (let depth = 0; depth < CARD_DEPTH && level.length; depth++) {
    const next: Element[] = [];
    for (const parent of level)
      for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
        if (!isCard(child, repeats)) next.push(child);
        else {
          cardChars += stats.get(child)?.chars ?? 0;
          cards++;
        }
      }
    level = next;
  }
  return cards >= minCards && cardChars >= MIN_CARD_SHARE * (stats.get(block)?.chars ?? 0);
}

/** Whether all of `block`'s text is its first heading's: a title, linked or not. */
function isTitle(block: Element, stats: Map<Element, TextStats>): boolean {
  const heading = block.querySelector(TITLE_HEADINGS);
  return !!heading && stats.get(heading)?.chars === stats.get(block)?.chars;
}

export interface PrunePlan {
  /** Link-dense blocks (menus, tag lists, related links) that are not items of a repeated structure. */
  blocks: Element[];
  /**
   * The share of the root's text in repeated items that carry a class (cards, posts, results,
   * rather than a list's bare items): high for listings, collections and threads.
   */
  itemShare: number;
  /** The share of the root's weight in `blocks`. */
  blockShare: number;
}

/**
 * What pruning the root would remove, read without changing the tree (Readability copies it next).
 * A grid of `minCards` cards stays: MIN_CARDS beside an article, MIN_ROW_CARDS on other pages.
 */
export function planPrune(
  root: Element,
  stats: Map<Element, TextStats>,
  keepItems = true,
  minCards = MIN_CARDS,
): PrunePlan {
  const total = Math.max(1, weight(stats.get(root)));
  const repeats = new Repeats();
  const blocks: Element[] = [];
  let itemChars = 0;
  let blockWeight = 0;
  walkElements(childElements(root), (element) => {
    const own = stats.get(element);
    if (!own) return false;
    // An item of a repeated structure (a card, a post) is kept whole, its links with it.
    if (keepItems && repeats.isItem(element)) {
      if (element.hasAttribute('class')) itemChars += own.chars;
      return false;
    }
    if (
      !BLOCKS.has(element.tagName) ||
      own.chars === 0 ||
      own.linkChars / own.chars <= MAX_LINK_DENSITY ||
      weight(own) / total >= MAX_PRUNED_SHARE
    )
      return true;
    // A grid of cards is link-dense too: it stays whole, but a grid beside the text (related
    // stories, other products) does not make the page a listing.
    if (keepItems && holdsCards(element, stats, repeats, minCards)) return false;
    // A title's link (a card's, a story's) is no navigation: its text is one heading's.
    if (keepItems && isTitle(element, stats)) return false;
    blocks.push(element);
    blockWeight += weight(own);
    return false;
  });
  return {
    blocks,
    itemShare: itemChars / Math.max(1, stats.get(root)?.chars ?? 0),
    blockShare: blockWeight / total,
  };
}
