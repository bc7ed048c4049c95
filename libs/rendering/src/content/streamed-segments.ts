import { rootsOf, walkElements } from '@app/extract';

/**
 * React's streamed server rendering sends the parts of a page that finish late at the end of the
 * body, each in a hidden `<div id="S:n">`, with a script that moves it where it belongs: in place
 * of a `<template id="P:n">` (a segment), or of a `<template id="B:n">` and the fallback after it
 * (a Suspense boundary's "Loading..."). A browser runs the script; without it the content stays
 * hidden at the end of the page, and the hidden elements' removal would drop it (a product's
 * features and specifications).
 */

/** Segments placed: a page's own are a few dozen; past this the rest stay hidden (bounded cost). */
const MAX_SEGMENTS = 1000;

/** Fallback nodes read after a boundary's template, looking for the comment that closes it. */
const MAX_FALLBACK_NODES = 200;

/** The comments that open (`$`, `$?` pending, `$!` failed) and close (`/$`) a Suspense boundary. */
const OPENS = new Set(['$', '$?', '$!']);
const CLOSES = '/$';

/**
 * The fallback after a boundary's template: its siblings up to the comment that closes the
 * boundary, nested boundaries counted; none when the page's comments were stripped.
 */
function fallbackAfter(template: Element): ChildNode[] {
  const nodes: ChildNode[] = [];
  let depth = 0;
  for (let node = template.nextSibling; node && nodes.length < MAX_FALLBACK_NODES; node = node.nextSibling) {
    if (node.nodeType === 8) {
      const data = (node as Comment).data;
      if (data === CLOSES && depth-- === 0) return nodes;
      if (OPENS.has(data)) depth++;
    }
    nodes.push(node);
  }
  return [];
}

/** Moves each streamed segment where the page's script would; before scripts and templates go. */
export function placeStreamedSegments(document: Document): void {
  const segments: Element[] = [];
  const holes = new Map<string, Element>();
  // One walk for both (a selector query walked the whole tree each); the last template of an id.
  walkElements(
    rootsOf(document),
    (element) => {
      const tag = element.tagName;
      if (tag === 'TEMPLATE') {
        const id = element.getAttribute('id');
        if (id !== null) holes.set(id, element);
      } else if (
        tag === 'DIV' &&
        segments.length < MAX_SEGMENTS &&
        element.hasAttribute('hidden') &&
        element.getAttribute('id')?.startsWith('S:')
      )
        segments.push(element);
      return true;
    },
    true,
  );
  for (const segment of segments) {
    const id = segment.id.slice(2);
    const hole = holes.get(`P:${id}`) ?? holes.get(`B:${id}`);
    if (!hole?.parentNode || segment.contains(hole)) continue;
    if (hole.id.startsWith('B:')) for (const node of fallbackAfter(hole)) node.remove();
    hole.replaceWith(...segment.childNodes);
    segment.remove();
  }
}
