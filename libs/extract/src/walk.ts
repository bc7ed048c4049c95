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

/** NodeFilter's masks (Node has no NodeFilter global). */
export const SHOW_ELEMENT = 0x1;
export const SHOW_TEXT = 0x4;

/**
 * `roots` and every element below them, in document order, those `keep` accepts when given: a
 * TreeWalker reads them off linkedom's list of nodes, at less cost than a walk reading each
 * element's children through its getters.
 */
export function elementsIn(roots: Element[], keep: (element: Element) => boolean = () => true): Element[] {
  const found: Element[] = [];
  for (const root of roots) {
    if (keep(root)) found.push(root);
    if (!root.firstElementChild) continue;
    const walker = root.ownerDocument.createTreeWalker(root, SHOW_ELEMENT);
    for (let next = walker.nextNode(); next; next = walker.nextNode())
      if (keep(next as Element)) found.push(next as Element);
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
