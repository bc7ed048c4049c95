import { dirname, join } from 'node:path';

/**
 * Visits the elements below `roots` top-down, the extractor's one walk: without recursion (a page
 * may nest thousands deep), and into an element only when `visit` says so, so what a pass removed
 * or took whole is not walked. Siblings come last first, or in the document's order when asked
 * (passes that keep the first of what they find).
 */
export function walkElements(
  roots: Element[],
  visit: (element: Element) => boolean,
  inDocumentOrder = false,
): void {
  const stack = inDocumentOrder ? [...roots].reverse() : [...roots];
  while (stack.length) {
    const element = stack.pop()!;
    if (!visit(element)) continue;
    if (inDocumentOrder)
      for (let child = element.lastElementChild; child; child = child.previousElementSibling)
        stack.push(child);
    else
      for (let child = element.firstElementChild; child; child = child.nextElementSibling) stack.push(child);
  }
}

/**
 * linkedom keeps a document's nodes (attributes and each element's end mark among them) in one list
 * in document order, each node linked to the next and each element to its end mark: a walk along
 * the list reads a subtree without allocating, where a TreeWalker first copied its nodes into an
 * array. Its CommonJS build, which this project loads, names the links with these symbols.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { NEXT, END } = require(join(dirname(require.resolve('linkedom')), 'shared', 'symbols.js')) as {
  NEXT: symbol;
  END: symbol;
};
type Linked = Record<symbol, Node | null>;

/** The node after `node` in linkedom's list: its first attribute or child, or what follows it. */
export const nextInList = (node: Node): Node | null => (node as unknown as Linked)[NEXT];

/** Where `root`'s subtree ends in linkedom's list: its end mark. */
export const endOf = (root: Node): Node | null => (root as unknown as Linked)[END];

/**
 * `roots` and every element below them, in document order, those `keep` accepts when given, read
 * along linkedom's list of nodes.
 */
export function elementsIn(roots: Element[], keep: (element: Element) => boolean = () => true): Element[] {
  const found: Element[] = [];
  for (const root of roots) {
    if (keep(root)) found.push(root);
    for (let node = nextInList(root), end = endOf(root); node && node !== end; node = nextInList(node))
      if (node.nodeType === 1 && keep(node as Element)) found.push(node as Element);
  }
  return found;
}

/** An element's child elements, in order. */
export function childElements(element: Element): Element[] {
  const children: Element[] = [];
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) children.push(child);
  return children;
}

/** A document's root elements: linkedom keeps what follows </html> (or a page without <html>) beside it. */
export const rootsOf = (document: Document): Element[] => [...document.children];
