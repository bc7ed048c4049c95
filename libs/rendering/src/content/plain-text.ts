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
 */
export function elementToText(root: Element): string {
  const parts: string[] = [];
  const walk = (node: Node, pre: boolean) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        parts.push(pre ? (child.textContent ?? '') : (child.textContent ?? '').replace(/\s+/g, ' '));
        continue;
      }
      if (child.nodeType !== 1) continue;
      const tag = (child as Element).tagName;
      if (tag === 'BR') {
        parts.push('\n');
        continue;
      }
      const separator = PARAGRAPHS.has(tag) ? '\n\n' : LINES.has(tag) ? '\n' : '';
      parts.push(separator);
      walk(child, pre || tag === 'PRE');
      parts.push(separator || (tag === 'TD' || tag === 'TH' ? '\t' : ''));
    }
  };
  walk(root, false);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/^[ \t]+|[ \t]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
