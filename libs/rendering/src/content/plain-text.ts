/** Elements after which text starts on a new line; PARAGRAPHS also leave a blank line. */
const LINES = new Set(
  'ADDRESS ARTICLE ASIDE DD DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM HEADER HR LI MAIN NAV SECTION TR'.split(
    ' ',
  ),
);
const PARAGRAPHS = new Set('BLOCKQUOTE H1 H2 H3 H4 H5 H6 OL P PRE TABLE UL'.split(' '));

/**
 * The readable text of an element: whitespace collapsed as a browser shows it, a line per block,
 * a blank line between paragraphs, cells separated by a tab, preformatted text kept as it is.
 * Built from small parts, since reading the end of one long concatenated string copies all of it.
 */
export function elementToText(root: Element): string {
  const parts: string[] = [];
  const trimTrailingBlanks = () => {
    while (parts.length) {
      const trimmed = parts[parts.length - 1].replace(/[ \t]+$/, '');
      if (trimmed) return void (parts[parts.length - 1] = trimmed);
      parts.pop();
    }
  };
  const trailingNewlines = () => {
    let count = 0;
    for (let i = parts.length - 1; i >= 0; i--) {
      const run = /\n*$/.exec(parts[i])![0].length;
      count += run;
      if (run < parts[i].length) break;
    }
    return count;
  };
  const breakLines = (count: number) => {
    trimTrailingBlanks();
    if (parts.length) parts.push('\n'.repeat(Math.max(0, count - trailingNewlines())));
  };
  const walk = (node: Node, pre: boolean) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const raw = child.textContent ?? '';
        if (pre) {
          parts.push(raw);
          continue;
        }
        const text = raw.replace(/\s+/g, ' ');
        const atLineStart = !parts.length || /\s$/.test(parts[parts.length - 1]);
        parts.push(atLineStart ? text.replace(/^ /, '') : text);
        continue;
      }
      if (child.nodeType !== 1) continue;
      const tag = (child as Element).tagName;
      if (tag === 'BR') {
        trimTrailingBlanks();
        parts.push('\n');
        continue;
      }
      const lines = PARAGRAPHS.has(tag) ? 2 : LINES.has(tag) ? 1 : 0;
      if (lines) breakLines(lines);
      walk(child, pre || tag === 'PRE');
      if (lines) breakLines(lines);
      else if (tag === 'TD' || tag === 'TH') {
        trimTrailingBlanks();
        parts.push('\t');
      }
    }
  };
  walk(root, false);
  return parts.join('').trim();
}
