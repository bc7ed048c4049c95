import { type JsonLdNode, typesOf } from './json-ld';
import { wordsOf } from './text-stats';
import { squish } from './text';

/** Below this many visible characters a product page's content is thin: its text is drawn by scripts. */
export const THIN_PRODUCT_CHARS = 200;

/** Characters of a JSON-LD description kept: a page's own is a few paragraphs. */
const MAX_DESCRIPTION_CHARS = 20_000;

const PRODUCT = /^(Product|ProductGroup|IndividualProduct|ProductModel)$/i;

const text = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? `${value}` : '';

/** A description may hold markup ("<strong>"), entities and line breaks: its paragraphs, as text. */
function paragraphsOf(description: string, document: Document): string[] {
  const holder = document.createElement('div');
  holder.innerHTML = description.slice(0, MAX_DESCRIPTION_CHARS).replace(/<br\s*\/?>|<\/p>/gi, '\n');
  return (holder.textContent ?? '')
    .split(/\n+/)
    .map((line) => squish(line))
    .filter(Boolean);
}

/** "49.00 EUR" from the first offer (or aggregate offer) that names a price. */
function priceOf(node: JsonLdNode): string {
  for (const offer of [node.offers].flat().slice(0, 10)) {
    if (!offer || typeof offer !== 'object') continue;
    const { price, lowPrice, priceCurrency } = offer as JsonLdNode;
    const amount = text(price) || text(lowPrice);
    if (amount) return [amount, text(priceCurrency)].filter(Boolean).join(' ');
  }
  return '';
}

/** Fewer words are a line of a template ("A kettle."), which a page with text of its own need not show. */
const MIN_DESCRIPTION_WORDS = 15;

/** Below this share of its words in the content, the description is not shown there. */
const MIN_SHOWN_SHARE = 0.5;

/** Characters of the content read for the description's words: a product page's text is a few pages. */
const MAX_CONTENT_CHARS = 200_000;

/** The share of `words` that `element`'s text holds. */
export function shareShown(words: string[], element: Element): number {
  const shown = new Set(wordsOf((element.textContent ?? '').slice(0, MAX_CONTENT_CHARS).toLowerCase()));
  return words.filter((word) => shown.has(word)).length / Math.max(1, words.length);
}

const productOf = (jsonLd: JsonLdNode[]) =>
  jsonLd.find((candidate) => typesOf(candidate).some((type) => PRODUCT.test(type)));

/**
 * The words of the product's JSON-LD description, when it is the page's own text: not a short line
 * of a template, nor one without spaces (percent-encoded: no text a reader would see).
 */
export function descriptionWords(jsonLd: JsonLdNode[], document: Document): string[] | undefined {
  const description = text(productOf(jsonLd)?.description);
  const joined = description ? paragraphsOf(description, document).join(' ') : '';
  return joined.split(' ').length < MIN_DESCRIPTION_WORDS ? undefined : wordsOf(joined.toLowerCase());
}

/**
 * The product the page's JSON-LD describes, as elements: name, price and description paragraphs
 * for a product page whose visible text is thin; the description alone when `content` has text of
 * its own but not the description, which scripts draw. Undefined when there is nothing to add.
 * `words` are the description's (descriptionWords), read once by the caller.
 */
export function productFromJsonLd(
  jsonLd: JsonLdNode[],
  content: Element,
  thin: boolean,
  words: string[] | undefined,
): Element | undefined {
  const node = productOf(jsonLd);
  const description = node && text(node.description);
  if (!node || !description) return undefined;
  const document = content.ownerDocument;
  if (!thin && (!words || shareShown(words, content) >= MIN_SHOWN_SHARE)) return undefined;
  const paragraphs = paragraphsOf(description, document);
  const section = document.createElement('section');
  const add = (tag: string, content: string) => {
    if (!content) return;
    const element = document.createElement(tag);
    element.textContent = content;
    section.append(element);
  };
  if (thin) {
    add('h2', text(node.name).trim());
    add('p', priceOf(node));
  }
  for (const paragraph of paragraphs) add('p', paragraph);
  return section;
}
