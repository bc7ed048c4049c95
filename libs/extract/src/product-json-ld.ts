import { type JsonLdNode, typesOf } from './json-ld';

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
    .map((line) => line.replace(/\s+/g, ' ').trim())
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

/**
 * The product the page's JSON-LD describes, as elements (name, price, description paragraphs),
 * for a product page whose visible text is thin; undefined when it describes none with a description.
 */
export function productFromJsonLd(jsonLd: JsonLdNode[], document: Document): Element | undefined {
  const node = jsonLd.find((candidate) => typesOf(candidate).some((type) => PRODUCT.test(type)));
  const description = node && text(node.description);
  if (!node || !description) return undefined;
  const section = document.createElement('section');
  const add = (tag: string, content: string) => {
    if (!content) return;
    const element = document.createElement(tag);
    element.textContent = content;
    section.append(element);
  };
  add('h2', text(node.name).trim());
  add('p', priceOf(node));
  for (const paragraph of paragraphsOf(description, document)) add('p', paragraph);
  return section;
}
