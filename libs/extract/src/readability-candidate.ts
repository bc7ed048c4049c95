import { Readability } from '@mozilla/readability';
import type { DocumentStats } from './text-stats';
import { elementsIn } from './walk';

/** Past this many elements Readability takes seconds; the structural pick serves alone. */
const MAX_ELEMENTS = 50_000;

/**
 * Readability reads each candidate's subtree again and again, so its work grows with the sum of
 * the elements' depths: at most 166,000 over 1,625 real pages of the development corpora.
 */
const MAX_TREE_WEIGHT = 500_000;

/** Readability's cleanup is cubic in a chain's depth; the corpora's deepest page is 56 deep. */
const MAX_DEPTH = 128;

/** Whether Readability's cost on this document stays bounded. */
export function readabilityCanAfford({ elements, depth, treeWeight }: DocumentStats): boolean {
  return elements <= MAX_ELEMENTS && treeWeight <= MAX_TREE_WEIGHT && depth <= MAX_DEPTH;
}

/** Readability's own methods the overrides below call (its types leave them out). */
const readability = Readability.prototype as unknown as {
  _grabArticle(this: Readability<Element>, page?: Element): Element | null;
  _postProcessContent(this: Readability<Element>, article: Element): void;
};

/**
 * Readability, picking as it does at less cost on linkedom's DOM (each override gives the same
 * markdown on all 2,615 corpus pages): no pass making the article's links and media absolute (the
 * document's were made so before, `javascript:` links dropped: the pass resolved each again); its
 * tag lists read off the list of nodes (linkedom compiled a selector for each); its visibility test
 * reading an element's style only where it has one (linkedom parses a declaration at each read);
 * its byline test reading a node's text only when the node is named a byline (it read every node's);
 * no serializing of the article for a log line it does not print.
 */
export class ArticlePicker extends Readability<Element> {
  declare readonly REGEXPS: { byline: RegExp };

  _fixRelativeUris(): void {}

  _grabArticle(page?: Element): Element | null {
    const article = readability._grabArticle.call(this, page);
    // parse() logs "Grabbed: " + its innerHTML next, built whether logging is on or not (a
    // sixtieth of a static page's content work): hidden for that line.
    if (article) Object.defineProperty(article, 'innerHTML', { value: '', configurable: true });
    return article;
  }

  _postProcessContent(article: Element): void {
    delete (article as { innerHTML?: string }).innerHTML;
    readability._postProcessContent.call(this, article);
  }

  _getAllNodesWithTag(node: Document | Element, tags: string[]): Element[] {
    // By the name each element keeps once read (parser-patches): upper case, whatever case
    // Readability made its own in ("DIV", "p"), but an <svg>'s as written.
    const wanted = new Set(tags.flatMap((tag) => [tag.toUpperCase(), tag]));
    return elementsIn([...node.children], (element) => wanted.has(element.tagName));
  }

  _isValidByline(node: Element, matchString: string): boolean {
    const named =
      node.getAttribute('rel') === 'author' ||
      !!node.getAttribute('itemprop')?.includes('author') ||
      this.REGEXPS.byline.test(matchString);
    if (!named) return false;
    const length = (node.textContent ?? '').trim().length;
    return length > 0 && length < 100;
  }

  _isProbablyVisible(node: Element): boolean {
    const style = node.hasAttribute('style') ? (node as HTMLElement).style : undefined;
    return (
      style?.display !== 'none' &&
      style?.visibility !== 'hidden' &&
      !node.hasAttribute('hidden') &&
      // Wikimedia's math images are aria-hidden fallbacks that show.
      (node.getAttribute('aria-hidden') !== 'true' || !!node.className?.includes?.('fallback-image'))
    );
  }
}

/** Readability's article element, picked on a copy of `document`, or undefined when it finds none. */
export function readabilityArticle(document: Document): Element | undefined {
  try {
    const copy = document.cloneNode(true) as Document;
    // The article's element itself, in the copy: serialized and parsed again it cost about 7% of a
    // static page's worker CPU.
    return (
      new ArticlePicker(copy, {
        maxElemsToParse: MAX_ELEMENTS,
        keepClasses: true,
        serializer: (node) => node as Element,
      }).parse()?.content ?? undefined
    );
  } catch {
    // Readability gives up on documents it cannot handle.
    return undefined;
  }
}
