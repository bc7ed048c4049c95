/**
 * Visits the elements below `roots` top-down, the removal passes' one walk: without recursion (a
 * page may nest thousands deep), and into an element only when `visit` says so, so what a pass
 * removed or took whole is not walked. Siblings come last first (a stack's order).
 */
export function walkElements(roots: Iterable<Element>, visit: (element: Element) => boolean): void {
  const stack = [...roots];
  while (stack.length) {
    const element = stack.pop()!;
    if (!visit(element)) continue;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) stack.push(child);
  }
}

/** An element's child elements, in order. */
export function childElements(element: Element): Element[] {
  const children: Element[] = [];
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) children.push(child);
  return children;
}
