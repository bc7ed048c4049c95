import { endOf, nextInList } from './walk';
import { squish } from './text';

/** Text measured under one element: what the extractor's decisions weigh. */
export interface TextStats {
  /** Visible characters (whitespace not counted) in the subtree. */
  chars: number;
  /** Of those, the characters inside links. */
  linkChars: number;
  /** Elements in the subtree, the element itself included. */
  elements: number;
}

export interface DocumentStats {
  of: Map<Element, TextStats>;
  /** Elements under the root, the root included. */
  elements: number;
  /** Deepest element's depth (the root is 1). */
  depth: number;
  /** Sum of the elements' depths: what walks that re-read each subtree cost. */
  treeWeight: number;
}

/** The words of `value`: runs of letters and digits, in any script. */
export const wordsOf = (value: string) => value.match(/[\p{L}\p{N}]+/gu) ?? [];

/** Not read as text: the page's text is what a reader sees. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'svg', 'SVG']);

function visibleChars(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 32 && code !== 160) count++;
  }
  return count;
}

/**
 * The text stats of every element under `root`, in one pass over its nodes in document order (along
 * linkedom's list of nodes: reading each element's children through its getters cost more),
 * without recursion, so a 512-deep tree costs no stack and a page costs time linear in its nodes.
 */
export function measure(root: Element): DocumentStats {
  const of = new Map<Element, TextStats>();
  let depth = 0;
  let treeWeight = 0;
  // The elements open at the current node, root first, each with its stats (none under a skipped one).
  const open: Element[] = [];
  const counts: (TextStats | undefined)[] = [];
  const enter = (element: Element, stats: TextStats | undefined) => {
    open.push(element);
    counts.push(stats);
    if (!stats) return;
    depth = Math.max(depth, open.length);
    treeWeight += open.length;
  };
  // Closed in post-order: each element's stats are whole before its parent's take them in.
  const close = () => {
    const element = open.pop()!;
    const stats = counts.pop();
    if (!stats) return;
    if (element.tagName === 'A') stats.linkChars = stats.chars;
    of.set(element, stats);
    const parent = counts[counts.length - 1];
    if (!parent) return;
    parent.chars += stats.chars;
    parent.linkChars += stats.linkChars;
    parent.elements += stats.elements;
  };
  enter(root, { chars: 0, linkChars: 0, elements: 1 });
  for (let node = nextInList(root), end = endOf(root); node && node !== end; node = nextInList(node)) {
    if (node.nodeType !== 1 && node.nodeType !== 3) continue;
    // The root stays open whatever a node's parent says: a node whose parent is not open (a tree
    // linkedom built oddly) counts under the root instead of closing past it without end.
    while (open.length > 1 && node.parentNode !== open[open.length - 1]) close();
    const parent = counts[counts.length - 1];
    if (node.nodeType === 3) {
      if (parent) parent.chars += visibleChars((node as Text).data);
    } else {
      const skipped = !parent || SKIPPED.has((node as Element).tagName);
      enter(node as Element, skipped ? undefined : { chars: 0, linkChars: 0, elements: 1 });
    }
  }
  while (open.length) close();
  return { of, elements: of.get(root)!.elements, depth, treeWeight };
}

/** Elements in document order, and for each the index past its last descendant. */
interface ElementOrder {
  elements: Element[];
  ends: number[];
}

/** The elements below `root` in document order (along linkedom's list), each with its subtree's end. */
function elementOrder(root: Element): ElementOrder {
  const elements: Element[] = [];
  const ends: number[] = [];
  // The indices of the elements open at the current one, outermost first.
  const open: number[] = [];
  for (let node = nextInList(root), end = endOf(root); node && node !== end; node = nextInList(node)) {
    if (node.nodeType !== 1) continue;
    while (open.length && node.parentNode !== elements[open[open.length - 1]])
      ends[open.pop()!] = elements.length;
    open.push(elements.length);
    elements.push(node as Element);
  }
  while (open.length) ends[open.pop()!] = elements.length;
  return { elements, ends };
}

/**
 * The text stats under `content` as a fresh measure would give them while a run of passes removes
 * blocks from it: one measure for the run (each pass measured the content again). A pass reads them
 * as they stood when it began: its removals leave its ancestors' stats when the next pass asks.
 */
export class LiveStats {
  private readonly stats: Map<Element, TextStats>;
  /** Removed elements, each with the parent it had. */
  private pending: [Element, Element][] = [];
  /** Elements' text as lines read it, kept until something under them goes. */
  private readonly lines = new Map<Element, string>();
  /** The content's elements in document order, kept until something goes (elementOrder). */
  private order?: ElementOrder;

  /** `stats`: `content`'s measure, when the caller has one of it as it stands. */
  constructor(
    readonly content: Element,
    stats?: Map<Element, TextStats>,
  ) {
    this.stats = stats ?? measure(content).of;
  }

  /** The stats, without what the passes before this one removed. */
  current(): Map<Element, TextStats> {
    for (const [removed, parent] of this.pending) this.takeOff(removed, parent);
    this.pending = [];
    return this.stats;
  }

  /** `element`'s visible characters as the pass began (0 for what was never measured). */
  charsOf(element: Element): number {
    return this.stats.get(element)?.chars ?? 0;
  }

  /** `element`'s text with its whitespace collapsed: the passes test the same short lines in turn. */
  lineText(element: Element): string {
    let text = this.lines.get(element);
    if (text === undefined) this.lines.set(element, (text = squish(element.textContent)));
    return text;
  }

  /**
   * Visits the elements below the content in document order, into an element only when `visit`
   * says so (walkElements' order): the passes walk the same content in turn, so its elements are
   * listed once, until something goes.
   */
  walk(visit: (element: Element) => boolean): void {
    const { elements, ends } = (this.order ??= elementOrder(this.content));
    for (let i = 0; i < elements.length;) i = visit(elements[i]) ? i + 1 : ends[i];
  }

  /** Removes `element` from the document. */
  remove(element: Element): void {
    const parent = element.parentElement;
    if (!parent) return;
    this.order = undefined;
    this.pending.push([element, parent]);
    for (let at: Element | null = parent; at; at = at === this.content ? null : at.parentElement)
      this.lines.delete(at);
    element.remove();
  }

  private takeOff(removed: Element, parent: Element): void {
    const gone = this.stats.get(removed);
    if (!gone) return;
    const chain: Element[] = [];
    let at: Element | null = parent;
    for (; at && at !== this.content; at = at.parentElement) chain.push(at);
    // Inside a block removed after it: that block's stats, which hold it, leave when it does.
    if (at !== this.content) return;
    chain.push(this.content);
    let linkChars = gone.linkChars;
    for (const element of chain) {
      const stats = this.stats.get(element);
      if (!stats) return;
      stats.chars -= gone.chars;
      stats.elements -= gone.elements;
      // A link's characters are all link characters, for it and for what holds it.
      if (element.tagName === 'A') linkChars = gone.chars;
      stats.linkChars = element.tagName === 'A' ? stats.chars : stats.linkChars - linkChars;
    }
  }
}
