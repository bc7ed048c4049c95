import { jsonLdNodes, typesOf } from './json-ld';

/** What the page says it is, in its JSON-LD or OpenGraph type: a prior for the extractor's choice. */
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

/** Read before scripts and meta tags are removed; `jsonLd` is the page's (jsonLdNodes). */
export function readPageProfile(document: Document, jsonLd = jsonLdNodes(document)): PageKind {
  const og = document.querySelector('meta[property="og:type"]')?.getAttribute('content')?.trim() ?? '';
  const types = [...jsonLd.flatMap(typesOf), og];
  for (const [pattern, kind] of KINDS) if (types.some((type) => pattern.test(type))) return kind;
  return 'other';
}
