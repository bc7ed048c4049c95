/** Elements after which text starts on a new line; PARAGRAPHS also leave a blank line. */
const LINES = new Set(
  'ADDRESS ARTICLE ASIDE DD DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM HEADER HR LI MAIN NAV SECTION TR'.split(
    ' ',
  ),
);
const PARAGRAPHS = new Set('BLOCKQUOTE H1 H2 H3 H4 H5 H6 OL P PRE TABLE UL'.split(' '));

/** `line` without the spaces and tabs it ends with (a loop: /[ \t]+$/ backtracks over long runs). */
export function trimLineEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return end < line.length ? line.slice(0, end) : line;
}

const endsWithSpace = (text: string) => text.length > 0 && /\s/.test(text[text.length - 1]);

/**
 * The readable text of an element: whitespace collapsed as a browser shows it, a line per block,
 * a blank line between paragraphs, cells separated by a tab, preformatted text kept as it is.
 * Built from small parts, since reading the end of one long concatenated string copies all of it.
 */
export function elementToText(root: Element): string {
  const parts: string[] = [];
  const trimTrailingBlanks = () => {
    while (parts.length) {
      const trimmed = trimLineEnd(parts[parts.length - 1]);
      if (trimmed) return void (parts[parts.length - 1] = trimmed);
      parts.pop();
    }
  };
  const trailingNewlines = () => {
    let count = 0;
    for (let i = parts.length - 1; i >= 0; i--) {
      let run = 0;
      while (run < parts[i].length && parts[i].charCodeAt(parts[i].length - 1 - run) === 10) run++;
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
        const atLineStart = !parts.length || endsWithSpace(parts[parts.length - 1]);
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
