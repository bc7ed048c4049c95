import { removeChrome } from './boilerplate';
import { removeBuyBoxes } from './buy-box';
import { removeAuthorFacts, threadRoot } from './discussion';
import { removeDuplicateBlocks } from './duplicates';
import { removeFacetPanels } from './facets';
import { leadOutside } from './lead';
import type { JsonLdNode } from './json-ld';
import {
  MAX_SIDE_REVIEWS_SHARE,
  productTitle,
  removeOtherProducts,
  removeReviews,
  leavesOutProse,
  removeSignups,
  shownDescriptionWords,
} from './product';
import { descriptionWords, productFromJsonLd, shareShown, THIN_PRODUCT_CHARS } from './product-json-ld';
import type { PageKind } from './profile';
import {
  CAPTION_LINE,
  COMMENT_FORM_LABEL,
  COMMENT_FORM_LINE,
  COMMENTS_LABEL,
  CREDIT_LINE,
  ELSEWHERE_LABEL,
  ELSEWHERE_LEAD,
  FILED_LINE,
  FRAME_LINE,
  MAX_CAPTION_CHARS,
  MAX_COMMENT_FORM_CHARS,
  MAX_FILED_CHARS,
  MAX_PROMO_CHARS,
  POST_CONTROL_LINE,
  PROMO_LINE,
  READING_TIME_LINE,
  removeCaptions,
  removeLabelledTails,
  removeLeadLines,
  removeLines,
} from './sections';
import {
  CARD_CONTROL_LINE,
  CONSENT_LINE,
  MACHINERY_LINE,
  MAX_CONSENT_CHARS,
  MAX_MACHINERY_CHARS,
  removeDateLines,
  THREAD_CONTROL_LINE,
} from './template-lines';
import { readabilityArticle, readabilityCanAfford } from './readability-candidate';
import { coverageRoot, MIN_CARDS, MIN_ROW_CARDS, planPrune } from './structural';
import { LiveStats, measure, type TextStats } from './text-stats';

/**
 * Readability's article is taken when it holds at least this share of the structural pick's text:
 * then the page is one text and Readability's finer cleanup serves it best. A page that says it is
 * an article needs less: its comments and related stories are what the structural pick adds.
 */
const ARTICLE_SHARE: Record<Exclude<PageKind, 'discussion'>, number> = {
  article: 0.15,
  other: 0.5,
  product: 0.5,
};

/** Past this share of the structural pick's text in repeated items, the page is a listing or a thread. */
const ITEM_SHARE = 0.6;

/**
 * Past this share of the root's weight the link-dense blocks are not around the content but are
 * it (a grid of cards whose classes differ from card to card, a directory of links): they stay.
 */
const MAX_PRUNED_SHARE = 0.6;

/**
 * What repeats by nature on a page that is not a product's: a documentation's code examples and
 * tables, the same line in several plans' lists, a paragraph the text itself repeats. A page laid
 * out twice repeats the blocks that hold them. A product's copies are of its own description.
 */
const REPEATABLE = new Set(['P', 'PRE', 'CODE', 'TABLE', 'LI', 'DD', 'DT']);

/**
 * Readability's article leaves out the product's description when it holds this share of its
 * words less than the structural pick does: it took the features beside it (a grid of selling
 * points, a spec table) as the page's text.
 */
const DESCRIPTION_LOSS = 0.2;

function losesDescription(article: Element, root: Element, words: string[]): boolean {
  return shareShown(words, root) - shareShown(words, article) >= DESCRIPTION_LOSS;
}

/** Below this many characters Readability's pick is a mis-pick. */
const MIN_ARTICLE_CHARS = 200;

/**
 * The element holding the page's main content. `document` is cleaned in place (chrome removed);
 * the element returned is in it, or in a copy when Readability's article is chosen. `kind` is what
 * the page says it is (readPageProfile, read before scripts and meta tags are removed), `jsonLd`
 * its JSON-LD (jsonLdNodes, read then too).
 */
export function extractMainContent(
  document: Document,
  kind: PageKind = 'other',
  jsonLd: JsonLdNode[] = [],
): Element {
  // The JSON-LD description's words, read once: for Readability's pick and for what the page lacks.
  const description = kind === 'product' ? descriptionWords(jsonLd, document) : undefined;
  const { content, kind: found, stats } = pickContent(document, kind, description);
  // One measure for the line passes below: each keeps it as a fresh one would be.
  const live = new LiveStats(content, stats);
  // A thread's related threads close it too; its posts' replies are its content.
  removeLabelledTails(live, ELSEWHERE_LABEL);
  if (found !== 'discussion') {
    // On other pages a comments label can open a thread's replies: the comments weighing decides.
    removeLabelledTails(live, found === 'article' ? COMMENTS_LABEL : COMMENT_FORM_LABEL);
    // A comment form's and a post's template lines; a product's page has its own (removeReviews).
    if (found !== 'product') {
      removeLines(live, COMMENT_FORM_LINE, MAX_COMMENT_FORM_CHARS);
      removeLines(live, FILED_LINE, MAX_FILED_CHARS);
      // A product's own buttons may be its page's text; a grid's repeat on every card.
      removeLines(live, CARD_CONTROL_LINE);
      removeDateLines(live);
    }
    // A gallery's captions are its text, credits and all.
    if (!removeCaptions(live)) removeLines(live, CAPTION_LINE, MAX_CAPTION_CHARS);
    removeLines(live, CREDIT_LINE);
    removeLines(live, READING_TIME_LINE);
    removeLines(live, FRAME_LINE);
    removeLines(live, PROMO_LINE, MAX_PROMO_CHARS);
    removeLines(live, CONSENT_LINE, MAX_CONSENT_CHARS);
    removeLines(live, MACHINERY_LINE, MAX_MACHINERY_CHARS);
    removeLeadLines(live, ELSEWHERE_LEAD);
  }
  if (found === 'product') {
    removeOtherProducts(content);
    removeDuplicateBlocks(content);
    // Drawn by scripts: what the page's JSON-LD says of the product is what a reader would see.
    const thin = measure(content).of.get(content)!.chars < THIN_PRODUCT_CHARS;
    const product = productFromJsonLd(jsonLd, content, thin, description);
    if (product) content.append(product);
  } else if (found === 'discussion') {
    removeAuthorFacts(content, measure(content).of);
    removeLines(new LiveStats(content), POST_CONTROL_LINE);
  } else removeDuplicateBlocks(content, REPEATABLE);
  // Last: a status line ("Member") can be what tells repeated author facts or copies apart.
  if (found !== 'product') removeLines(new LiveStats(content), THREAD_CONTROL_LINE);
  return content;
}

/** <article> elements read: a page's own is one, a listing's one a card. */
const MAX_ARTICLES = 100;

/**
 * Whether the content holds one <article> titled by an h1, and more beside it: HTML's own sign that
 * the page is that article, shown among other things (a stream of stories, related cards). An
 * <article> holding the whole content says nothing: themes wrap any page, a thread, a listing so.
 */
function besideArticle(root: Element): boolean {
  const titled = [...root.querySelectorAll('article')]
    .slice(0, MAX_ARTICLES)
    .filter((article) => article.querySelector('h1'));
  return titled.length === 1;
}

/**
 * The content's element, what the page turned out to be, and the content's text stats when the
 * pick measured it as it is returned (the line passes then need no measure of their own).
 */
function pickContent(
  document: Document,
  said: PageKind,
  description: string[] | undefined,
): { content: Element; kind: PageKind; stats?: Map<Element, TextStats> } {
  const body = document.body ?? document.documentElement;
  const page = measure(body);
  if (said === 'product') removeSignups(body, page.of);
  // On any page: a shop's product that says nothing of itself, a collection's cards.
  removeBuyBoxes(body, page.of);
  // A story whose readers' comments are all its text (a link aggregator's) is a thread.
  const thread = removeChrome(body, page.of, said);
  let kind = thread && said === 'article' ? 'discussion' : said;
  removeFacetPanels(body, page.of);
  if (kind === 'product') removeReviews(body, page.of);
  // Elsewhere, a band of buyers' reviews beside a collection's grid, not a site of reviews.
  else if (kind === 'other') removeReviews(body, page.of, MAX_SIDE_REVIEWS_SHARE);
  const cleaned = measure(body);
  // A product's name heads its page, often apart from the description that outweighs it.
  const picked = coverageRoot(body, cleaned.of, kind === 'product' ? productTitle(body) : undefined);
  const root = kind === 'discussion' ? threadRoot(picked, body) : picked;
  // Readers' comments kept as the content beside it make the page a thread, not an article.
  if (kind === 'other' && !thread && besideArticle(root)) kind = 'article';
  const prune = planPrune(
    root,
    cleaned.of,
    kind !== 'product',
    kind === 'article' ? MIN_CARDS : MIN_ROW_CARDS,
  );
  const pruned = () => {
    if (prune.blockShare <= MAX_PRUNED_SHARE) for (const block of prune.blocks) block.remove();
    return root;
  };
  // A discussion's posts by many authors are its content, which Readability drops as comments.
  if (kind === 'discussion') return { content: pruned(), kind };
  // Mostly repeated items (cards, posts, results): Readability would keep one or drop them all.
  if (kind !== 'article' && prune.itemShare >= ITEM_SHARE) return { content: pruned(), kind };
  // Mostly link-dense blocks (a directory, rows of cards classed one by one): Readability would keep
  // the intro alone. A product's page is its own text; the cards beside it are other products.
  if (kind !== 'product' && prune.blockShare > MAX_PRUNED_SHARE) return { content: pruned(), kind };
  // On what the chrome's removal and the pruning left: Readability then weighs the page's content
  // only, without the link-dense blocks (a byline's, tags', a breadcrumb's) the pick dropped.
  pruned();
  const article = readabilityCanAfford(page) ? readabilityArticle(document) : undefined;
  const rootStats = measure(root).of;
  const rootChars = rootStats.get(root)!.chars;
  const articleStats = article && measure(article).of;
  const articleChars = article ? articleStats!.get(article)!.chars : 0;
  const readable = articleChars >= MIN_ARTICLE_CHARS && articleChars >= ARTICLE_SHARE[kind] * rootChars;
  // Without one in its JSON-LD, a product's description is the block the page names so.
  const words =
    kind === 'product' && readable ? (description ?? shownDescriptionWords(root, rootStats)) : description;
  // Nor that, the description is the prose the article leaves out.
  const loses =
    readable &&
    (words ? losesDescription(article!, root, words) : kind === 'product' && leavesOutProse(article!, root));
  const content = readable && !loses ? article! : root;
  // The article's lead, between its headline and its body, is its first paragraph: not a product's.
  const lead = kind === 'product' ? undefined : leadOutside(body, content, cleaned.of);
  if (lead) {
    content.prepend(lead.cloneNode(true));
    return { content, kind };
  }
  return { content, kind, stats: content === root ? rootStats : articleStats! };
}
