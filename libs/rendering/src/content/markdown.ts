import { convertToMarkdown, escapeMarkdown } from './markdown-converter';
import { DEFAULT_RULE, MARKDOWN_RULES } from './markdown-rules';
import { trimLineEnd } from './plain-text';
import { squish } from '@app/extract';

/** Most cells a colspan may stand for; a larger value is a broken page, not a wide table. */
const MAX_COLSPAN = 50;

/**
 * A table is padded to a grid only while the grid holds at most this many times its cells (plus
 * a few): a first row of 20,000 cells over 20,000 rows of one would otherwise become 400 million.
 */
const MAX_GRID_GROWTH = 4;

/**
 * Deepest list items and quotes kept as such: each level indents every line below it, so the
 * markdown of deeper ones grows with the square of their depth. Deeper ones keep their text as
 * blocks of the level above.
 */
const MAX_MARKDOWN_NESTING = 10;

const LANGUAGE_PATTERNS = [
  /(?:^|\s)(?:language|lang)-([\w+#.-]+)/i,
  /(?:^|\s)highlight-(?:text|source)-([\w+#.-]+)/i,
  /(?:^|\s)brush:\s*([\w+#.-]+)/i,
];

function languageOf(element: Element | null | undefined): string | undefined {
  if (!element) return undefined;
  const declared = element.getAttribute('data-lang') ?? element.getAttribute('data-language');
  if (declared && /^[\w+#.-]+$/.test(declared)) return declared.toLowerCase();
  const className = element.getAttribute('class') ?? '';
  for (const pattern of LANGUAGE_PATTERNS) {
    const match = pattern.exec(className);
    if (match) return match[1].toLowerCase();
  }
  return undefined;
}

/**
 * Every <pre> becomes <pre><code class="language-x">text</code></pre>, the one shape the rules
 * fence, with the language read from the code, the pre or its wrapper (GitHub's highlight-source-x).
 */
function normalizeCodeBlocks(root: Element): void {
  const document = root.ownerDocument;
  for (const pre of root.querySelectorAll('pre')) {
    const language =
      languageOf(pre.querySelector('code')) ?? languageOf(pre) ?? languageOf(pre.parentElement);
    for (const br of pre.querySelectorAll('br')) br.replaceWith('\n');
    const code = document.createElement('code');
    code.textContent = pre.textContent ?? '';
    if (language) code.setAttribute('class', `language-${language}`);
    pre.replaceChildren(code);
  }
}

/** One at a time: spreading a node's children into one call overflows the stack for wide ones. */
function moveChildren(from: Element, to: Element): void {
  while (from.firstChild) to.appendChild(from.firstChild);
}

const rowsOf = (table: Element): Element[] =>
  [...table.children].flatMap((child) =>
    child.tagName === 'TR'
      ? [child]
      : ['THEAD', 'TBODY', 'TFOOT'].includes(child.tagName)
        ? [...child.children].filter((row) => row.tagName === 'TR')
        : [],
  );

const cellsOf = (row: Element): Element[] =>
  [...row.children].filter((c) => c.tagName === 'TD' || c.tagName === 'TH');

const span = (cell: Element) => Math.min(MAX_COLSPAN, Math.max(1, Number(cell.getAttribute('colspan')) || 1));

/** What a data table's cell does not hold: a page's sections, forms or whole blocks of prose. */
const LAYOUT_CONTENT = 'h1, h2, h3, h4, h5, h6, form, pre, blockquote, article, nav';

/**
 * A table used for layout: it holds other tables, headings, forms, code or quotes, or it is a
 * single row or a single column.
 */
function isLayoutTable(table: Element, rows: Element[], holdsTable: boolean): boolean {
  const role = table.getAttribute('role');
  if (role === 'presentation' || role === 'none' || holdsTable) return true;
  const widest = rows.reduce((most, row) => Math.max(most, cellsOf(row).length), 0);
  return rows.length < 2 || widest < 2 || table.querySelector(LAYOUT_CONTENT) !== null;
}

/** Replaces a layout table by its cells' contents, one block per cell. */
function unwrapTable(table: Element, rows: Element[]): void {
  const document = table.ownerDocument;
  const blocks = document.createElement('div');
  for (const cell of rows.flatMap(cellsOf)) {
    const block = document.createElement('div');
    moveChildren(cell, block);
    blocks.append(block);
  }
  table.replaceWith(blocks);
}

/**
 * Shapes data tables the way the GFM table rules convert them (they leave tables without a heading
 * row as raw HTML): the caption moves out before the table, the first row becomes the heading row
 * when there is none, and colspans and short rows are padded so every row has as many cells
 * (only the heading row when that grid would exceed MAX_GRID_GROWTH times the cells).
 */
function normalizeTable(table: Element, rows: Element[]): void {
  const document = table.ownerDocument;
  for (const caption of [...table.children].filter((child) => child.tagName === 'CAPTION')) {
    const paragraph = document.createElement('p');
    moveChildren(caption, paragraph);
    table.before(paragraph);
    caption.remove();
  }
  const first = rows[0];
  if (first.parentElement?.tagName !== 'THEAD') {
    const head = document.createElement('thead');
    head.append(first);
    table.prepend(head);
  }
  const cells = rows.map(cellsOf);
  const count = cells.reduce((sum, row) => sum + row.length, 0);
  const spans = cells.map((row) => row.reduce((sum, cell) => sum + span(cell), 0));
  const width = spans.reduce((widest, columns) => Math.max(widest, columns), 0);
  // A grid far larger than the table keeps its cells as they are and pads only the heading row
  // (GFM fills short rows in): a table converts in time linear in its cells.
  const grid = width * rows.length <= MAX_GRID_GROWTH * count + 64;
  const gridWidth = grid ? width : cells.reduce((widest, row) => Math.max(widest, row.length), 0);
  rows.forEach((row, index) => {
    for (const cell of cells[index]) {
      for (let extra = grid ? span(cell) - 1 : 0; extra > 0; extra--)
        cell.after(document.createElement(cell.tagName.toLowerCase()));
      cell.removeAttribute('colspan');
    }
    const head = row.parentElement?.tagName === 'THEAD';
    if (!grid && !head) return;
    const columns = grid ? spans[index] : cells[index].length;
    for (let column = columns; column < gridWidth; column++)
      row.append(document.createElement(head ? 'th' : 'td'));
  });
}

function normalizeTables(root: Element): void {
  const tables = [...root.querySelectorAll('table')];
  // The tables that hold another, in one walk: each table marks the nearest one around it.
  const holders = new Set<Element>();
  const stack: [Element, Element | null][] = [[root, null]];
  while (stack.length) {
    const [element, around] = stack.pop()!;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      const table = child.tagName === 'TABLE';
      if (table && around) holders.add(around);
      stack.push([child, table ? child : around]);
    }
  }
  // Reverse document order visits nested tables before the tables around them.
  for (const table of tables.reverse()) {
    const rows = rowsOf(table);
    if (isLayoutTable(table, rows, holders.has(table))) unwrapTable(table, rows);
    else normalizeTable(table, rows);
  }
}

/** Replaces an element by a <div> holding its children: its text stays, its markdown meaning goes. */
function unwrapToBlock(element: Element): void {
  const block = element.ownerDocument.createElement('div');
  moveChildren(element, block);
  element.replaceWith(block);
}

const TABLE_PARTS = new Set(['TR', 'TD', 'TH', 'THEAD', 'TBODY', 'TFOOT', 'CAPTION']);

/** Replaces an element by its children, in place. */
function unwrap(element: Element): void {
  while (element.firstChild) element.before(element.firstChild);
  element.remove();
}

/**
 * A link inside a link ends the outer one, as an HTML parser has it: the inner link and what
 * follows it move out after the outer link. When the inner one lies deeper, the outer link gives
 * up its tag (its content stays; the inner links keep theirs).
 */
function endLinkAt(outer: Element, inner: Element, unwrapped: Set<Element>): void {
  if (unwrapped.has(outer)) return;
  if (inner.parentElement !== outer) {
    unwrapped.add(outer);
    return unwrap(outer);
  }
  let last: ChildNode = outer;
  for (let node: ChildNode | null = inner; node;) {
    const next: ChildNode | null = node.nextSibling;
    last.after(node);
    last = node;
    node = next;
  }
}

/**
 * Reshapes, in one walk, what the markdown cannot hold: list items and quotes past
 * MAX_MARKDOWN_NESTING become blocks of their own; table parts outside any table (Readability
 * lifts a cell out of a layout table) give up their tag, keeping their content, as an HTML parser
 * would; so do links inside links (endLinkAt).
 */
function fitTree(root: Element): void {
  const toBlocks: Element[] = [];
  const toUnwrap: Element[] = [];
  const nestedLinks: [Element, Element][] = [];
  const stack: [Element, number, boolean, Element | null][] = [[root, 0, false, null]];
  while (stack.length) {
    const [element, level, inTable, link] = stack.pop()!;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      const tag = child.tagName;
      const nests = tag === 'LI' || tag === 'BLOCKQUOTE';
      if (nests && level >= MAX_MARKDOWN_NESTING) toBlocks.push(child);
      if (!inTable && TABLE_PARTS.has(tag)) (tag === 'TD' || tag === 'TH' ? toBlocks : toUnwrap).push(child);
      const isLink = tag === 'A' && !!child.getAttribute('href');
      if (link && isLink) nestedLinks.push([link, child]);
      stack.push([child, nests ? level + 1 : level, inTable || tag === 'TABLE', isLink ? child : link]);
    }
  }
  for (const element of toBlocks) unwrapToBlock(element);
  for (const element of toUnwrap) unwrap(element);
  // Outer pairs first, as the walk records them: a link moved out may hold the next one.
  const unwrapped = new Set<Element>();
  for (const [outer, inner] of nestedLinks) endLinkAt(outer, inner, unwrapped);
}

const ONE_PIXEL = /^\s*[01](\.0*)?\s*(px)?\s*$/i;
const ONE_PIXEL_STYLE = {
  width: /(^|;)width:[01](\.0*)?(px)?(;|$)/,
  height: /(^|;)height:[01](\.0*)?(px)?(;|$)/,
};

/** A dimension of at most one pixel, from the attribute or the inline style. */
function tiny(img: Element, dimension: 'width' | 'height'): boolean {
  const attribute = img.getAttribute(dimension);
  if (attribute !== null && ONE_PIXEL.test(attribute)) return true;
  const style = img.getAttribute('style');
  return !!style && ONE_PIXEL_STYLE[dimension].test(style.replace(/\s+/g, '').toLowerCase());
}

/**
 * Addresses shaped like a tracking beacon, on any site: a path ending in a pixel, beacon or
 * collector endpoint, or in a transparent spacer image's name.
 */
const BEACON_URL =
  /\/(pixel|beacon|tracking|tracker|collect|impression|1x1)(\.(gif|png|php|aspx?|jpe?g))?$|[/_.-](pixel|spacer|blank|1x1|transparent|clear|beacon)\.(gif|png)$/i;

/** A tracking pixel: an image one pixel wide or tall, or one at an address shaped like a beacon. */
export function isTrackingPixel(img: Element): boolean {
  if (tiny(img, 'width') || tiny(img, 'height')) return true;
  const src = img.getAttribute('src') ?? '';
  try {
    return BEACON_URL.test(new URL(src).pathname);
  } catch {
    return BEACON_URL.test(src);
  }
}

/**
 * Images the markdown leaves out: inlined as data: URIs (kilobytes of base64) and tracking pixels.
 * An image with only a srcset takes its first candidate as its address.
 */
function removeUnwantedImages(root: Element): void {
  for (const img of root.querySelectorAll('img')) {
    if (!img.getAttribute('src')) {
      const candidate = (img.getAttribute('srcset') ?? '').trim().split(/[\s,]+/, 1)[0];
      if (candidate) img.setAttribute('src', candidate);
    }
    const src = img.getAttribute('src') ?? '';
    if (!src || src.startsWith('data:') || isTrackingPixel(img)) img.remove();
  }
}

/** A markdown level-1 heading for a page title, escaped so the title reads as text. */
export function titleHeading(title: string): string {
  return `# ${escapeMarkdown(squish(title))}`;
}

/**
 * Markdown (CommonMark with GFM tables and strikethrough) of an element's content. The element is
 * reshaped for conversion, so pass one that is not needed afterwards.
 */
export function elementToMarkdown(root: Element): string {
  fitTree(root);
  normalizeCodeBlocks(root);
  normalizeTables(root);
  removeUnwantedImages(root);
  const markdown = convertToMarkdown(root, MARKDOWN_RULES, DEFAULT_RULE);
  // Spaces and tabs at line ends go, by a loop: /[ \t]+$/gm backtracks over every long run.
  return markdown
    .split('\n')
    .map(trimLineEnd)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
