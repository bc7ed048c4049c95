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
 * The text stats of every element under `root`, in one post-order walk without recursion, so a
 * 512-deep tree costs no stack and a page costs time linear in its nodes.
 */
export function measure(root: Element): DocumentStats {
  const of = new Map<Element, TextStats>();
  let depth = 0;
  let treeWeight = 0;
  // [element, depth, children pushed]
  const stack: [Element, number, boolean][] = [[root, 1, false]];
  while (stack.length) {
    const top = stack[stack.length - 1];
    const [element, level, expanded] = top;
    if (!expanded) {
      top[2] = true;
      if (level > depth) depth = level;
      treeWeight += level;
      for (let child = element.lastElementChild; child; child = child.previousElementSibling) {
        if (!SKIPPED.has(child.tagName)) stack.push([child, level + 1, false]);
      }
      continue;
    }
    stack.pop();
    const stats: TextStats = { chars: 0, linkChars: 0, elements: 1 };
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) stats.chars += visibleChars((child as Text).data);
      else if (child.nodeType === 1) {
        const inner = of.get(child as Element);
        if (!inner) continue;
        stats.chars += inner.chars;
        stats.linkChars += inner.linkChars;
        stats.elements += inner.elements;
      }
    }
    if (element.tagName === 'A') stats.linkChars = stats.chars;
    of.set(element, stats);
  }
  return { of, elements: of.get(root)!.elements, depth, treeWeight };
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

  constructor(readonly content: Element) {
    this.stats = measure(content).of;
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
    if (text === undefined)
      this.lines.set(element, (text = (element.textContent ?? '').replace(/\s+/g, ' ').trim()));
    return text;
  }

  /** Removes `element` from the document. */
  remove(element: Element): void {
    const parent = element.parentElement;
    if (!parent) return;
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
