import { classAndId } from './signals';
import { type TextStats, wordsOf } from './text-stats';
import { childElements, walkElements } from './walk';
import { squish } from './text';

/**
 * An article's lead (standfirst, intro, teaser, subtitle) often stands between its headline and
 * its body, in the header's markup: Readability and the structural pick take the body alone and
 * drop it, though it is the article's first paragraph. Found by its class or id words, in the
 * corpora's languages; not 'summary' or 'excerpt' (a shop's product summary, another post's excerpt)
 * nor 'introduction' (a listing's).
 */
const LEAD_WORDS = new Set(
  (
    'lead lede intro teaser subtitle subheadline subline standfirst chapo abstract deck dek sapo ' +
    'bajada entradilla copete'
  ).split(' '),
);

/** Elements read after the headline: a lead comes right after it, so past these there is none. */
const MAX_ELEMENTS_AFTER_TITLE = 60;

/** A lead is a paragraph or two: shorter is a label, longer is a body of its own. */
const MIN_LEAD_CHARS = 40;
const MAX_LEAD_CHARS = 1000;

/** A lead is prose: more of it in links is a list of teasers. */
const MAX_LEAD_LINK_DENSITY = 0.3;

/** A sentence's end, in the corpora's scripts; or a subheadline's many words. */
const SENTENCE_END = /[.!?。！？…]/;
const MIN_LEAD_WORDS = 8;
const isProse = (text: string) => SENTENCE_END.test(text) || wordsOf(text).length >= MIN_LEAD_WORDS;

/**
 * A lead set as a subheading ("<h2>Mit Entsetzen hat das Forum ... reagiert, so der DJV in einer
 * Meldung von heute.</h2>"): a heading this long that ends a sentence is a paragraph, not a title.
 */
const MIN_HEADING_LEAD_CHARS = 120;
const SENTENCE_CLOSE = /[.!?。！？…]["“”»«'’)]*$/;

/** The prose heading that is all of `element`'s text, if any: a page builder's row holding the lead. */
function proseHeading(element: Element, chars: number, stats: Map<Element, TextStats>): Element | undefined {
  if (chars < MIN_HEADING_LEAD_CHARS) return undefined;
  const heading = /^H[2-4]$/.test(element.tagName) ? element : element.querySelector('h2, h3, h4');
  if (!heading || stats.get(heading)?.chars !== chars) return undefined;
  return SENTENCE_CLOSE.test((heading.textContent ?? '').trim()) ? heading : undefined;
}

function isLeadNamed(element: Element): boolean {
  // "introBox", "ts-intro", "article__lead": each part of a token; "subtitle-2" is a type scale's step.
  return classAndId(element)
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .split(/\s+/)
    .some((token) => {
      const parts = token.split(/[_-]+/);
      return !/^\d+$/.test(parts[parts.length - 1]) && parts.some((part) => LEAD_WORDS.has(part));
    });
}

/** Whether a sibling next to `element` has its class: one of a list's items. */
function isCard(element: Element): boolean {
  const name = element.getAttribute('class');
  return (
    !!name &&
    (element.previousElementSibling?.getAttribute('class') === name ||
      element.nextElementSibling?.getAttribute('class') === name)
  );
}

const collapsed = (text: string | null) => squish(text).toLowerCase();

/**
 * The lead under `body` that follows its first h1 closely, when `content` does not hold its text:
 * an element named as a lead, of a paragraph's size and mostly not links.
 */
export function leadOutside(
  body: Element,
  content: Element,
  stats: Map<Element, TextStats>,
): Element | undefined {
  const title = body.querySelector('h1');
  if (!title) return undefined;
  let seen = false;
  let after = 0;
  let lead: Element | undefined;
  walkElements(
    childElements(body),
    (element) => {
      if (lead || after > MAX_ELEMENTS_AFTER_TITLE) return false;
      if (element === title) {
        seen = true;
        return false;
      }
      if (!seen) return true;
      after++;
      const { chars = 0, linkChars = 0 } = stats.get(element) ?? {};
      if (chars > MAX_LEAD_CHARS) return true;
      if (linkChars <= MAX_LEAD_LINK_DENSITY * chars) lead = proseHeading(element, chars, stats);
      // One of a list of cards named as teasers: neither it nor what it holds leads the page.
      if (lead || isCard(element)) return false;
      if (
        chars >= MIN_LEAD_CHARS &&
        linkChars <= MAX_LEAD_LINK_DENSITY * chars &&
        isLeadNamed(element) &&
        // Prose: a sentence, or a subheadline's words, not a card's fields ("Business / Price $279").
        isProse(element.textContent ?? '')
      ) {
        lead = element;
        return false;
      }
      return true;
    },
    true,
  );
  if (!lead || content.contains(lead)) return undefined;
  const text = collapsed(lead.textContent).slice(0, 80);
  return collapsed(content.textContent).includes(text) ? undefined : lead;
}
