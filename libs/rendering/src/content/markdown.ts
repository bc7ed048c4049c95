import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

/** Most cells a colspan may stand for; a larger value is a broken page, not a wide table. */
const MAX_COLSPAN = 50;

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
 * Every <pre> becomes <pre><code class="language-x">text</code></pre>, the one shape turndown
 * fences, with the language read from the code, the pre or its wrapper (GitHub's highlight-source-x).
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

/** A table used for layout: it holds other tables, or it is a single row or a single column. */
function isLayoutTable(table: Element, rows: Element[]): boolean {
  if (table.getAttribute('role') === 'presentation' || table.querySelector('table')) return true;
  const widest = Math.max(0, ...rows.map((row) => cellsOf(row).length));
  return rows.length < 2 || widest < 2;
}

/** Replaces a layout table by its cells' contents, one block per cell. */
function unwrapTable(table: Element, rows: Element[]): void {
  const document = table.ownerDocument;
  const blocks = document.createElement('div');
  for (const cell of rows.flatMap(cellsOf)) {
    const block = document.createElement('div');
    block.append(...cell.childNodes);
    blocks.append(block);
  }
  table.replaceWith(blocks);
}

/**
 * Shapes data tables the way turndown-plugin-gfm converts them (it leaves tables without a heading
 * row as raw HTML): the caption moves out before the table, the first row becomes the heading row
 * when there is none, and colspans and short rows are padded so every row has as many cells.
 */
function normalizeTable(table: Element, rows: Element[]): void {
  const document = table.ownerDocument;
  for (const caption of [...table.children].filter((child) => child.tagName === 'CAPTION')) {
    const paragraph = document.createElement('p');
    paragraph.append(...caption.childNodes);
    table.before(paragraph);
    caption.remove();
  }
  const first = rows[0];
  if (first.parentElement?.tagName !== 'THEAD') {
    const head = document.createElement('thead');
    head.append(first);
    table.prepend(head);
  }
  const width = Math.max(...rows.map((row) => cellsOf(row).reduce((sum, cell) => sum + span(cell), 0)));
  for (const row of rows) {
    const cells = cellsOf(row);
    for (const cell of cells) {
      for (let extra = span(cell) - 1; extra > 0; extra--)
        cell.after(document.createElement(cell.tagName.toLowerCase()));
      cell.removeAttribute('colspan');
    }
    const tag = row.parentElement?.tagName === 'THEAD' ? 'th' : 'td';
    for (let count = cellsOf(row).length; count < width; count++) row.append(document.createElement(tag));
  }
}

function normalizeTables(root: Element): void {
  // Reverse document order visits nested tables before the tables around them.
  for (const table of [...root.querySelectorAll('table')].reverse()) {
    const rows = rowsOf(table);
    if (isLayoutTable(table, rows)) unwrapTable(table, rows);
    else normalizeTable(table, rows);
  }
}

/** Images inlined as data: URIs would put kilobytes of base64 into the markdown. */
function removeInlineImages(root: Element): void {
  for (const img of root.querySelectorAll('img')) {
    const src = img.getAttribute('src') ?? '';
    if (!src || src.startsWith('data:')) img.remove();
  }
}

function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
    hr: '---',
  });
  service.use(gfm);
  // Cleanup already removed these; this keeps their text out even if something slipped through.
  service.remove(['script', 'style', 'noscript', 'template']);
  // Rules added later win: a cell stays on one line, and a pipe in it does not split it.
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const text = content
        .replace(/\s*\n+\s*/g, ' ')
        .replace(/\|/g, '\\|')
        .trim();
      return `${node.parentNode?.firstChild === node ? '| ' : ' '}${text} |`;
    },
  });
  service.addRule('emptyLink', {
    filter: (node) => node.nodeName === 'A' && !node.textContent?.trim() && !node.querySelector('img'),
    replacement: () => '',
  });
  return service;
}

const turndown = createTurndown();

/** A markdown level-1 heading for a page title, escaped so the title reads as text. */
export function titleHeading(title: string): string {
  return `# ${turndown.escape(title.replace(/\s+/g, ' ').trim())}`;
}

/**
 * Markdown (CommonMark with GFM tables and strikethrough) of an element's content. The element is
 * reshaped for conversion, so pass one that is not needed afterwards.
 */
export function elementToMarkdown(root: Element): string {
  normalizeCodeBlocks(root);
  normalizeTables(root);
  removeInlineImages(root);
  return turndown
    .turndown(root.innerHTML)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
