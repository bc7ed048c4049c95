import { removeLabelledTails, removeSectionsHeaded } from './sections';
import { classAndId, names } from './signals';
import { planPrune } from './structural';
import { LiveStats, measure, type TextStats, wordsOf } from './text-stats';
import { childElements, walkElements } from './walk';
import { squish } from './text';

/** Headings that introduce other products, what others said or the shop's terms, not the page's own product. */
const ELSEWHERE_HEADING =
  /^((explore|discover|shop|see|view|browse|your) )?(related|similar|recommended|sponsored|other (products|items)|more (products|items)|recently viewed|you (may|might) (also )?like|customers (also|who|frequently)|products related to|featured products|(seller|buyer)s?'? feedback|top reviews|(user |customer )?testimonials|customers say|(choose your |purchase options and )add-ons|(\w+ )?accessories\W*$|shipping (&|and) (returns|fee)|(delivery|shipping) (&|and) returns|where are we shipping|frequently bought|(people|others) (who |like you )?(also )?(viewed|bought)|be the first to review|browsing history|more buying options|detailed seller ratings|product videos|need help with your order|feedback\W*$|les avis|produits (complémentaires|similaires)|from the brand\b|more from|complete the look|shop the look|reviews?\b|customer reviews|ratings?( &| and) reviews|avis( clients)?\b|(kunden)?bewertungen|opiniones|recensioni|beoordelingen|reseñas)/i;

/**
 * The same labels as a line of their own, not a heading (an accordion's or a carousel's title: "Your
 * recently viewed items", "Related products", "Delivery & returns"): they open what follows them.
 */
const OTHER_PRODUCTS_LINE =
  /^((your )?recently viewed( items| products)?|browsing history|related (products|items)|frequently bought together|(shipping|delivery) (&|and) returns|sponsored( products)?|customers (also|who) (bought|viewed)[^.]*)[\s:.!?]*$/i;

/**
 * On a product page, cards of other products (related, also viewed, variations) are links to
 * them: the link-dense blocks go even when they repeat, which on a listing would make them content.
 * Sections headed as other products or as reviews go too.
 */
export function removeOtherProducts(content: Element): void {
  for (const block of planPrune(content, measure(content).of, false).blocks) block.remove();
  removeSectionsHeaded(content, ELSEWHERE_HEADING);
  removeLabelledTails(new LiveStats(content), OTHER_PRODUCTS_LINE);
}

/** h1s read for the product's name: a page holds a few (an accessibility summary, a menu's, the name's). */
const MAX_TITLES = 20;

/** A product's name and a page's <title> are a line; longer text is read no further. */
const MAX_TITLE_CHARS = 1000;

const readAs = (text: string | null | undefined) => squish(text).toLowerCase();

/**
 * The h1 naming the product: the one the page's <title> holds ("Steel kettle | Shop"), else the
 * first. A page may open with other h1s (a menu's, a screen reader's summary) that are no title.
 */
export function productTitle(root: Element): Element | null {
  const titles = [...root.querySelectorAll('h1')].slice(0, MAX_TITLES);
  const title = readAs(root.ownerDocument.title.slice(0, MAX_TITLE_CHARS));
  const named = titles.find((h1) => {
    // A name is a line: an h1 around a whole page (hostile or broken) is not read through.
    const text = h1.textContent ?? '';
    return text.length <= MAX_TITLE_CHARS && readAs(text) !== '' && title.includes(readAs(text));
  });
  return named ?? titles[0] ?? null;
}

/** Class and id words of buyers' reviews: what others said of the product, not what the page says. */
const REVIEW_WORDS = new Set('review reviews'.split(' '));

/** Reviews are a list: a block of a few lines (a testimonial on a service's page) stays. */
const MIN_REVIEWS_CHARS = 500;

/** A block holding this share of the page's text is the page (a body classed "product-reviews-on"). */
const MAX_REVIEWS_SHARE = 0.9;

/**
 * On a page that says nothing of itself (a collection, a shop's home), buyers' reviews in a band of
 * their own (a carousel of testimonials below the grid) go up to this share of the page's text:
 * past it they may be the page (a site of reviews).
 */
export const MAX_SIDE_REVIEWS_SHARE = 0.3;

/**
 * Removes a product page's reviews, named so in a class or id, before the content is picked: a
 * product with many reviews has more of their text than of its own, and the pick would take them.
 * Never the block holding the page's title. Elsewhere, `maxShare` is MAX_SIDE_REVIEWS_SHARE.
 */
export function removeReviews(
  root: Element,
  stats: Map<Element, TextStats>,
  maxShare = MAX_REVIEWS_SHARE,
): void {
  const total = Math.max(1, stats.get(root)?.chars ?? 0);
  const title = productTitle(root);
  walkElements(childElements(root), (element) => {
    const { heads, tails } = names(element);
    const chars = stats.get(element)?.chars ?? 0;
    if (
      [...heads, ...tails].some((word) => REVIEW_WORDS.has(word)) &&
      chars >= MIN_REVIEWS_CHARS &&
      chars < maxShare * total &&
      !element.contains(title)
    ) {
      element.remove();
      return false;
    }
    return true;
  });
}

/** A sign-up's lines around its email field: a title, a pitch, a consent line. */
const MAX_SIGNUP_CHARS = 600;

/**
 * Removes the sign-ups of a product page (a newsletter, a back-in-stock alert): the largest block
 * around an email field that holds a few lines at most, and not the page's title. Before the
 * chrome's removal takes the field.
 */
export function removeSignups(root: Element, stats: Map<Element, TextStats>): void {
  const title = productTitle(root);
  for (const field of root.querySelectorAll('input[type="email" i]')) {
    let block: Element = field;
    for (
      let parent = field.parentElement;
      parent &&
      parent !== root &&
      (stats.get(parent)?.chars ?? Infinity) <= MAX_SIGNUP_CHARS &&
      !parent.contains(title);
      parent = parent.parentElement
    )
      block = parent;
    if (block !== field) block.remove();
  }
}

/** A class or id word naming the product's description, in the shops' languages. */
const DESCRIPTION_NAME =
  /(^|[\s_-])(description|beschreibung|descripcion|descrizione|omschrijving|opis)([\s_-]|$)/i;

/** A description is a paragraph or a few: less is a caption, more a wrapper of the whole page. */
const MIN_SHOWN_DESCRIPTION_CHARS = 200;
const MAX_SHOWN_DESCRIPTION_CHARS = 3000;

/**
 * The words of the product's description as the page shows it, for a page whose JSON-LD has none:
 * the first block named so (itemprop, class or id) of a paragraph or a few.
 */
export function shownDescriptionWords(root: Element, stats: Map<Element, TextStats>): string[] | undefined {
  let found: Element | undefined;
  walkElements(
    [root],
    (element) => {
      if (found) return false;
      const chars = stats.get(element)?.chars ?? 0;
      if (chars < MIN_SHOWN_DESCRIPTION_CHARS) return false;
      const named =
        (element.getAttribute('itemprop') ?? '').toLowerCase() === 'description' ||
        DESCRIPTION_NAME.test(classAndId(element));
      if (named && chars <= MAX_SHOWN_DESCRIPTION_CHARS) found = element;
      return !found;
    },
    true,
  );
  return found && wordsOf((found.textContent ?? '').toLowerCase());
}

/** A paragraph this long is prose: a description's, not a label's or a card's. */
const MIN_PROSE_PARAGRAPH_CHARS = 120;

/** Past this much prose left out, Readability's article took another part of the page for its text. */
const MAX_PROSE_LEFT_OUT = 200;

/** Paragraphs compared: a product page's text is a few dozen. */
const MAX_PARAGRAPHS = 500;

const paragraphTexts = (root: Element) =>
  [...root.querySelectorAll('p')].slice(0, MAX_PARAGRAPHS).map((p) => squish(p.textContent));

/**
 * Whether Readability's article leaves out paragraphs of prose the structural pick holds: on a
 * product page that names no description (in JSON-LD or a block), they are its description, which
 * the article lost to the features beside it. Paragraphs compare by their text: the article is a copy.
 */
export function leavesOutProse(article: Element, root: Element): boolean {
  const kept = new Set(paragraphTexts(article));
  let left = 0;
  for (const text of paragraphTexts(root))
    if (text.length >= MIN_PROSE_PARAGRAPH_CHARS && !kept.has(text)) left += text.length;
  return left >= MAX_PROSE_LEFT_OUT;
}
