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
  [/^(Product|ProductGroup|product|og:product)$/i, 'product'],
];

/** A microdata item of a product; a page holding several lists them (a collection's cards). */
const PRODUCT_ITEM = /schema\.org\/(Product|IndividualProduct|ProductModel)$/i;

/** Microdata items read: a page's own are a few, a listing's one a card. */
const MAX_ITEMS = 200;

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

/**
 * Read before scripts and meta tags are removed; `jsonLd` is the page's (jsonLdNodes). JSON-LD and
 * microdata before OpenGraph: many CMSs say "article" in og:type of every page, a shop's products too.
 */
export function readPageProfile(document: Document, jsonLd = jsonLdNodes(document)): PageKind {
  const og = document.querySelector('meta[property="og:type"]')?.getAttribute('content')?.trim() ?? '';
  return kindOf(jsonLd.flatMap(typesOf)) ?? kindOf(microdataTypes(document)) ?? kindOf([og]) ?? 'other';
}
