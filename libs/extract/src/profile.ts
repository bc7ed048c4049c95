import { jsonLdNodes, typesOf } from './json-ld';

/** What the page says it is, in its JSON-LD, microdata or OpenGraph type: a prior for the extractor's choice. */
export type PageKind = 'article' | 'product' | 'discussion' | 'other';

const KINDS: [RegExp, PageKind][] = [
  // Not Question: an FAQPage lists its questions as such.
  [/^(DiscussionForumPosting|QAPage|SocialMediaPosting)$/i, 'discussion'],
  [
    /^(Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|AnalysisNewsArticle|OpinionNewsArticle|article)$/i,
    'article',
  ],
  // Not OpenGraph's product.group: shops put it on their collections.
  [/^(Product|ProductGroup|(og:)?product(\.item)?)$/i, 'product'],
];

/** A microdata item of a product; a page holding several lists them (a collection's cards). */
const PRODUCT_ITEM = /schema\.org\/(Product|IndividualProduct|ProductModel)$/i;

/** Microdata items read: a page's own are a few, a listing's one a card. */
const MAX_ITEMS = 200;

/** A class, id or itemprop naming a product's title: on the page's h1, it names the page's product. */
const PRODUCT_TITLE = /product[-_]?(title|name)/i;

/** h1s read for their names. */
const MAX_TITLES = 20;

/** Elements read per h1: it, its parent, and a few inside it (a title's span). */
const MAX_TITLE_PARTS = 8;

/**
 * A page titled by an h1 named as a product's title, once or twice (a page laid out twice repeats
 * it): a shop without structured data. A listing names each card so, or none.
 */
function titleTypes(document: Document): string[] {
  const named = [...document.querySelectorAll('h1')]
    .slice(0, MAX_TITLES)
    .filter((h1) =>
      titleParts(h1).some((part) =>
        ['class', 'id', 'itemprop'].some((name) =>
          PRODUCT_TITLE.test((part.getAttribute(name) ?? '').slice(0, 300)),
        ),
      ),
    );
  return named.length === 1 || named.length === 2 ? ['Product'] : [];
}

/** An h1, its parent and its first elements inside: a bounded read of a page's markup. */
function titleParts(h1: Element): Element[] {
  const parts = h1.parentElement ? [h1.parentElement, h1] : [h1];
  // Breadth first, each element's first children only: a wide or deep h1 costs no more.
  for (let at = parts.length - 1; at < parts.length && parts.length < MAX_TITLE_PARTS; at++)
    for (
      let child = parts[at].firstElementChild;
      child && parts.length < MAX_TITLE_PARTS;
      child = child.nextElementSibling
    )
      parts.push(child);
  return parts;
}

function kindOf(types: string[]): PageKind | undefined {
  for (const [pattern, kind] of KINDS) if (types.some((type) => pattern.test(type))) return kind;
  return undefined;
}

/** 'Product' when the page's microdata holds one product item, and no other. */
function microdataTypes(document: Document): string[] {
  const items = [...document.querySelectorAll('[itemtype]')].slice(0, MAX_ITEMS);
  const products = items.filter((item) => PRODUCT_ITEM.test((item.getAttribute('itemtype') ?? '').trim()));
  return products.length === 1 ? ['Product'] : [];
}

/** og:type tags read: a page says it once, or twice when a shop's plugin adds its own to a CMS's. */
const MAX_OG_TYPES = 5;

/**
 * The page's og:type; a product when any of them says so: a CMS says "article" on every page, a
 * shop's plugin adds "product" beside it (`og:product`).
 */
function ogTypes(document: Document): string[] {
  const types = [...document.querySelectorAll('meta[property="og:type"]')]
    .slice(0, MAX_OG_TYPES)
    .map((meta) => meta.getAttribute('content')?.trim() ?? '');
  const product = types.find((type) => kindOf([type]) === 'product');
  return [product ?? types[0] ?? ''];
}

/**
 * Read before scripts and meta tags are removed; `jsonLd` is the page's (jsonLdNodes). JSON-LD and
 * microdata before OpenGraph: many CMSs say "article" in og:type of every page, a shop's products too.
 * Then the h1's names: the weakest sign, for a page that says nothing else.
 */
export function readPageProfile(document: Document, jsonLd = jsonLdNodes(document)): PageKind {
  return (
    kindOf(jsonLd.flatMap(typesOf)) ??
    kindOf(microdataTypes(document)) ??
    kindOf(ogTypes(document)) ??
    kindOf(titleTypes(document)) ??
    'other'
  );
}
