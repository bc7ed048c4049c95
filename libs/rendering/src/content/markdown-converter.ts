/**
 * HTML to markdown over the parsed document, as turndown 7 converts it (its rules, whitespace
 * handling and joins, so the markdown is the same) but linear in the document: turndown read every
 * node's textContent and searched its subtree for void elements (time × depth), trimmed its output
 * with a regex that backtracks over whitespace runs (time × run²), and numbered list items by
 * searching their siblings (time × items²). Here each node's text facts are computed once, bottom
 * up, and the rest is loops. Nesting is already bounded (html-document.ts), so the recursion is too.
 *
 * Derived from turndown 7.2 (MIT License, Copyright (c) 2017 Dom Christie) and collapse-whitespace
 * (MIT License, Copyright (c) 2014 Luc Thevenard).
 */
import { isSpace } from './white-space';

const BLOCK = new Set(
  'ADDRESS ARTICLE ASIDE AUDIO BLOCKQUOTE BODY CANVAS CENTER DD DIR DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM FRAMESET H1 H2 H3 H4 H5 H6 HEADER HGROUP HR HTML ISINDEX LI MAIN MENU NAV NOFRAMES NOSCRIPT OL OUTPUT P PRE SECTION TABLE TBODY TD TFOOT TH THEAD TR UL'.split(
    ' ',
  ),
);
const VOID = new Set(
  'AREA BASE BR COL COMMAND EMBED HR IMG INPUT KEYGEN LINK META PARAM SOURCE TRACK WBR'.split(' '),
);
const MEANINGFUL_WHEN_BLANK = new Set('A TABLE THEAD TBODY TFOOT TH TD IFRAME SCRIPT AUDIO VIDEO'.split(' '));

export const isBlock = (node: Node) => BLOCK.has(node.nodeName);

/** What a rule may ask of a node beyond the DOM, computed once per node. */
export interface NodeFacts {
  isBlock: boolean;
  isCode: boolean;
  isBlank: boolean;
  /** The node's text is only whitespace (or empty). */
  blankText: boolean;
  /** An <img> below the node. */
  hasImage: boolean;
  /** The element's position among its parent's elements. */
  elementIndex: number;
}

export interface Rule {
  filter: (node: Element, facts: NodeFacts) => boolean;
  replacement: (content: string, node: Element, facts: NodeFacts) => string;
}

/** The text facts of a subtree, combined from its children's without reading its text again. */
interface TextFacts {
  length: number;
  allSpace: boolean;
  first: string;
  last: string;
  /** The longest whitespace prefix (the whole text when allSpace) and how much of it is ASCII. */
  lead: string;
  leadAscii: number;
  /** The longest whitespace suffix (the whole text when allSpace) and how much of it is ASCII. */
  trail: string;
  trailAscii: number;
  hasVoid: boolean;
  hasMeaningful: boolean;
  hasImage: boolean;
}

const isAsciiSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

function textFactsOf(text: string): TextFacts {
  let lead = 0;
  while (lead < text.length && isSpace(text.charCodeAt(lead))) lead++;
  let leadAscii = 0;
  while (leadAscii < lead && isAsciiSpace(text.charCodeAt(leadAscii))) leadAscii++;
  let trail = text.length;
  while (trail > 0 && isSpace(text.charCodeAt(trail - 1))) trail--;
  let trailAscii = text.length;
  while (trailAscii > trail && isAsciiSpace(text.charCodeAt(trailAscii - 1))) trailAscii--;
  return {
    length: text.length,
    allSpace: lead === text.length,
    first: text.charAt(0),
    last: text.charAt(text.length - 1),
    lead: text.slice(0, lead),
    leadAscii,
    trail: text.slice(trail),
    trailAscii: text.length - trailAscii,
    hasVoid: false,
    hasMeaningful: false,
    hasImage: false,
  };
}

function elementFacts(children: TextFacts[], childNames: string[]): TextFacts {
  const facts: TextFacts = {
    length: 0,
    allSpace: true,
    first: '',
    last: '',
    lead: '',
    leadAscii: 0,
    trail: '',
    trailAscii: 0,
    hasVoid: false,
    hasMeaningful: false,
    hasImage: false,
  };
  let leading = true;
  let leadingAscii = true;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    const name = childNames[i];
    facts.hasVoid ||= child.hasVoid || VOID.has(name);
    facts.hasMeaningful ||= child.hasMeaningful || MEANINGFUL_WHEN_BLANK.has(name);
    facts.hasImage ||= child.hasImage || name === 'IMG';
    facts.length += child.length;
    if (!facts.first) facts.first = child.first;
    if (child.last) facts.last = child.last;
    if (leading) facts.lead += child.lead;
    if (leadingAscii) facts.leadAscii += child.leadAscii;
    leadingAscii &&= child.allSpace && child.leadAscii === child.length;
    leading &&= child.allSpace;
    facts.allSpace &&= child.allSpace;
  }
  let trailing = true;
  let trailingAscii = true;
  for (let i = children.length - 1; i >= 0 && (trailing || trailingAscii); i--) {
    const child = children[i];
    if (trailing) facts.trail = child.trail + facts.trail;
    if (trailingAscii) facts.trailAscii += child.trailAscii;
    trailingAscii &&= child.allSpace && child.trailAscii === child.length;
    trailing &&= child.allSpace;
  }
  return facts;
}

const NO_TEXT = textFactsOf('');

/** The text facts of every node under `root`, bottom up, without recursion. */
function collectTextFacts(root: Node): Map<Node, TextFacts> {
  const facts = new Map<Node, TextFacts>();
  const stack: [Node, boolean][] = [[root, false]];
  while (stack.length) {
    const [node, visited] = stack.pop()!;
    if (node.nodeType === 3 || node.nodeType === 4) {
      facts.set(node, textFactsOf((node as CharacterData).data));
    } else if (node.nodeType !== 1 && node !== root) {
      facts.set(node, NO_TEXT);
    } else if (!visited) {
      stack.push([node, true]);
      for (let child = node.firstChild; child; child = child.nextSibling) stack.push([child, false]);
    } else {
      const children: TextFacts[] = [];
      const names: string[] = [];
      for (let child = node.firstChild; child; child = child.nextSibling) {
        children.push(facts.get(child)!);
        names.push(child.nodeName);
      }
      facts.set(node, elementFacts(children, names));
    }
  }
  return facts;
}

/**
 * Collapses whitespace as a browser lays it out (turndown's collapseWhitespace, from Luc
 * Thevenard's collapse-whitespace, MIT): runs become one space, spaces at block edges go, <pre>
 * is left alone, and comments and other non-content nodes are removed.
 */
function collapseWhitespace(element: Element): void {
  const isPre = (node: Node) => node.nodeName === 'PRE';
  if (!element.firstChild || isPre(element)) return;
  const next = (prev: Node | null, current: Node): Node =>
    (prev && prev.parentNode === current) || isPre(current)
      ? (current.nextSibling ?? current.parentNode!)
      : (current.firstChild ?? current.nextSibling ?? current.parentNode!);
  const remove = (node: Node): Node => {
    const following = node.nextSibling ?? node.parentNode!;
    node.parentNode!.removeChild(node);
    return following;
  };
  const trimEndSpace = (text: CharacterData) => {
    if (text.data.endsWith(' ')) text.data = text.data.slice(0, -1);
  };
  let prevText: CharacterData | null = null;
  let keepLeadingWs = false;
  let prev: Node | null = null;
  let node: Node = next(prev, element);
  while (node !== element) {
    if (node.nodeType === 3 || node.nodeType === 4) {
      const textNode = node as CharacterData;
      let text = textNode.data.replace(/[ \r\n\t]+/g, ' ');
      if ((!prevText || prevText.data.endsWith(' ')) && !keepLeadingWs && text[0] === ' ')
        text = text.slice(1);
      if (!text) {
        node = remove(node);
        continue;
      }
      textNode.data = text;
      prevText = textNode;
    } else if (node.nodeType === 1) {
      if (isBlock(node) || node.nodeName === 'BR') {
        if (prevText) trimEndSpace(prevText);
        prevText = null;
        keepLeadingWs = false;
      } else if (VOID.has(node.nodeName) || isPre(node)) {
        // Space around inline void elements and inline <pre> stays.
        prevText = null;
        keepLeadingWs = true;
      } else if (prevText) {
        keepLeadingWs = false;
      }
    } else {
      node = remove(node);
      continue;
    }
    const following = next(prev, node);
    prev = node;
    node = following;
  }
  if (prevText) {
    trimEndSpace(prevText);
    if (!prevText.data) remove(prevText);
  }
}

function trimLeadingNewlines(text: string): string {
  let start = 0;
  while (start < text.length && text.charCodeAt(start) === 10) start++;
  return start ? text.slice(start) : text;
}

function trimTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return end < text.length ? text.slice(0, end) : text;
}

export const trimNewlines = (text: string) => trimTrailingNewlines(trimLeadingNewlines(text));

/** Appends a replacement, with as many newlines between as either side asks for (at most two). */
function join(output: string[], replacement: string): void {
  const tail = output.pop() ?? '';
  const s1 = trimTrailingNewlines(tail);
  const s2 = trimLeadingNewlines(replacement);
  const separator = '\n\n'.slice(0, Math.max(tail.length - s1.length, replacement.length - s2.length));
  if (s1) output.push(s1);
  if (separator) output.push(separator);
  if (s2) output.push(s2);
}

const MARKDOWN_ESCAPES: [RegExp, string][] = [
  [/\\/g, '\\\\'],
  [/\*/g, '\\*'],
  [/^-/g, '\\-'],
  [/^\+ /g, '\\+ '],
  [/^(=+)/g, '\\$1'],
  [/^(#{1,6}) /g, '\\$1 '],
  [/`/g, '\\`'],
  [/^~~~/g, '\\~~~'],
  [/\[/g, '\\['],
  [/\]/g, '\\]'],
  [/^>/g, '\\>'],
  [/_/g, '\\_'],
  [/^(\d+)\. /g, '$1\\. '],
];

/**
 * Any of MARKDOWN_ESCAPES' patterns: text none of them matches comes back as it is, in one pass
 * instead of one a pattern (most text nodes have nothing to escape).
 */
const ANY_ESCAPE = /[\\*`[\]_]|^(?:-|\+ |=|#{1,6} |~~~|>|\d+\. )/;

/** Text escaped so it reads as text in markdown (each pattern is one linear pass). */
export function escapeMarkdown(text: string): string {
  if (!ANY_ESCAPE.test(text)) return text;
  return MARKDOWN_ESCAPES.reduce(
    (escaped, [pattern, replacement]) => escaped.replace(pattern, replacement),
    text,
  );
}

/**
 * A link or image destination as markdown readers agree on it: parentheses, angle brackets and
 * whitespace percent-encoded (the URL it names is the same), since many readers end a destination
 * at the first `)` and ignore a backslash escape there.
 */
export const markdownUrl = (url: string) =>
  // encodeURIComponent leaves parentheses as they are; a wide space is encoded as its UTF-8 bytes.
  url.replace(/[()<>\s]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c)));

/**
 * The markdown of `root`'s children under `rules` (first match wins; blank nodes and the
 * fallbacks as turndown's). `root` is modified (whitespace collapsed).
 */
export function convertToMarkdown(root: Element, rules: Rule[], fallback: Rule): string {
  // The parser leaves text split at entities; escaping reads a text node's start as a line's.
  root.normalize();
  collapseWhitespace(root);
  const texts = collectTextFacts(root);

  const flankingWhitespace = (node: Node, own: NodeFacts): [string, string] => {
    if (own.isBlock) return ['', ''];
    const text = texts.get(node)!;
    let leading = text.lead;
    let trailing = text.allSpace ? '' : text.trail;
    const flanked = (sibling: Node | null, edge: 'first' | 'last') => {
      if (!sibling) return false;
      if (sibling.nodeType === 3) return texts.get(sibling)![edge] === ' ';
      return sibling.nodeType === 1 && !isBlock(sibling) && texts.get(sibling)![edge] === ' ';
    };
    if (text.leadAscii > 0 && flanked(node.previousSibling, 'last')) leading = leading.slice(text.leadAscii);
    if (!text.allSpace && text.trailAscii > 0 && flanked(node.nextSibling, 'first')) {
      trailing = trailing.slice(0, trailing.length - text.trailAscii);
    }
    return [leading, trailing];
  };

  const process = (parent: Node, parentIsCode: boolean): string[] => {
    const output: string[] = [];
    let elementIndex = 0;
    for (const node of parent.childNodes) {
      let replacement = '';
      if (node.nodeType === 3) {
        const value = (node as Text).data;
        replacement = parentIsCode ? value : escapeMarkdown(value);
      } else if (node.nodeType === 1) {
        const text = texts.get(node)!;
        const own: NodeFacts = {
          isBlock: isBlock(node),
          isCode: node.nodeName === 'CODE' || parentIsCode,
          isBlank:
            !VOID.has(node.nodeName) &&
            !MEANINGFUL_WHEN_BLANK.has(node.nodeName) &&
            text.allSpace &&
            !text.hasVoid &&
            !text.hasMeaningful,
          blankText: text.allSpace,
          hasImage: text.hasImage,
          elementIndex: elementIndex++,
        };
        replacement = replacementFor(node as Element, own);
      }
      join(output, replacement);
    }
    return output;
  };

  const replacementFor = (node: Element, own: NodeFacts): string => {
    const [leading, trailing] = flankingWhitespace(node, own);
    if (own.isBlank) return leading + (own.isBlock ? '\n\n' : '') + trailing;
    const rule = rules.find((candidate) => candidate.filter(node, own)) ?? fallback;
    let content = process(node, own.isCode).join('');
    if (leading || trailing) content = content.trim();
    return leading + rule.replacement(content, node, own) + trailing;
  };

  const output = process(root, false).join('');
  return trimLeadingTabsAndNewlines(output).trimEnd();
}

function trimLeadingTabsAndNewlines(text: string): string {
  let start = 0;
  while (start < text.length && [9, 10, 13].includes(text.charCodeAt(start))) start++;
  return text.slice(start);
}
