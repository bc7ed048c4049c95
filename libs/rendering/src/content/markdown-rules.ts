import {
  escapeMarkdown,
  isBlock,
  markdownUrl,
  trimNewlines,
  type NodeFacts,
  type Rule,
} from './markdown-converter';

/**
 * turndown 7's rules and turndown-plugin-gfm's (tables, strikethrough, task lists, highlighted
 * code) in the options this service uses (atx headings, fenced code, `-` bullets, `*` and `**`),
 * plus its own: a cell stays on one line, and a link with no text and no image is left out.
 * Their output is turndown's; only how they find things changed (no sibling searches).
 * Derived from turndown and turndown-plugin-gfm (MIT License, Copyright (c) 2017 Dom Christie).
 */

const named =
  (...names: string[]) =>
  (node: Element) =>
    names.includes(node.nodeName);

// Line breaks normalized as an HTML parser's input stream has them.
const cleanAttribute = (value: string | null) =>
  value ? value.replace(/\r\n?/g, '\n').replace(/\n\s*/g, '\n') : '';
const escapeLinkTitle = (title: string) => title.replace(/"/g, '\\"');

/** The table's first row, as HTMLTableElement.rows[0] finds it. */
function firstRow(table: Element): Element | undefined {
  const sections = [...table.children];
  const inSection = (tag: string) =>
    sections
      .filter((child) => child.tagName === tag)
      .map((section) => [...section.children].find((row) => row.tagName === 'TR'))
      .find(Boolean);
  return (
    inSection('THEAD') ??
    sections
      .flatMap((child) =>
        child.tagName === 'TR'
          ? [child]
          : child.tagName === 'TBODY'
            ? [...child.children].filter((r) => r.tagName === 'TR')
            : [],
      )
      .at(0) ??
    inSection('TFOOT')
  );
}

function isFirstTbody(element: Node): boolean {
  const previous = element.previousSibling;
  return (
    element.nodeName === 'TBODY' &&
    (!previous || (previous.nodeName === 'THEAD' && !/\S/.test(previous.textContent ?? '')))
  );
}

/** A heading row: in a THEAD, or the table's (or first TBODY's) first child with only TH cells. */
function isHeadingRow(row: Element | undefined): boolean {
  const parent = row?.parentNode;
  if (!row || !parent) return false;
  return (
    parent.nodeName === 'THEAD' ||
    (parent.firstChild === row &&
      (parent.nodeName === 'TABLE' || isFirstTbody(parent)) &&
      [...row.childNodes].every((cell) => cell.nodeName === 'TH'))
  );
}

const ALIGN_BORDERS: Record<string, string> = { left: ':--', right: '--:', center: ':-:' };

/** Whether code needs padding inside its backticks (turndown's /^`|^ .*?[^ ].* $|`$/, linear). */
function needsCodePadding(code: string): boolean {
  if (code.startsWith('`') || code.endsWith('`')) return true;
  if (code.length < 3 || code[0] !== ' ' || code[code.length - 1] !== ' ') return false;
  const inner = code.slice(1, -1);
  const breaks = inner.match(/[\n\r\u2028\u2029]/g)?.length ?? 0;
  return breaks === 1 || (breaks === 0 && /[^ ]/.test(inner));
}

function inlineCode(content: string): string {
  if (!content) return '';
  const code = content.replace(/\r?\n|\r/g, ' ');
  const padding = needsCodePadding(code) ? ' ' : '';
  const runs = new Set((code.match(/`+/g) ?? []).map((run) => run.length));
  let delimiter = 1;
  while (runs.has(delimiter)) delimiter++;
  const fence = '`'.repeat(delimiter);
  return fence + padding + code + padding + fence;
}

function fencedCode(node: Element): string {
  const code = node.firstChild!;
  const language = /language-(\S+)/.exec((code as Element).getAttribute('class') ?? '')?.[1] ?? '';
  const text = code.textContent ?? '';
  let fenceSize = 3;
  for (const match of text.matchAll(/^`{3,}/gm)) fenceSize = Math.max(fenceSize, match[0].length + 1);
  const fence = '`'.repeat(fenceSize);
  return `\n\n${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}\n\n`;
}

function listItem(content: string, node: Element, facts: NodeFacts): string {
  let prefix = '-   ';
  const parent = node.parentNode as Element;
  if (parent.nodeName === 'OL') {
    const start = parent.getAttribute('start');
    prefix = `${start ? Number(start) + facts.elementIndex : facts.elementIndex + 1}.  `;
  }
  const isParagraph = content.endsWith('\n');
  const body = (trimNewlines(content) + (isParagraph ? '\n' : '')).replace(
    /\n/g,
    `\n${' '.repeat(prefix.length)}`,
  );
  return prefix + body + (node.nextSibling ? '\n' : '');
}

function tableRow(content: string, node: Element): string {
  if (!isHeadingRow(node)) return `\n${content}`;
  let borders = '';
  [...node.childNodes].forEach((cell, index) => {
    const align = ((cell as Element).getAttribute?.('align') ?? '').toLowerCase();
    const border = (align && ALIGN_BORDERS[align]) || '---';
    borders += `${index === 0 ? '| ' : ' '}${border} |`;
  });
  return `\n${content}${borders ? `\n${borders}` : ''}`;
}

const HIGHLIGHTED = /highlight-(?:text|source)-([a-z0-9]+)/;

/** First match wins, in turndown's order (rules added last come first). */
export const MARKDOWN_RULES: Rule[] = [
  {
    filter: (node, facts) => node.nodeName === 'A' && facts.blankText && !facts.hasImage,
    replacement: () => '',
  },
  {
    filter: named('TH', 'TD'),
    replacement: (content, node) => {
      // A whitespace run holding a line break becomes one space: a cell stays on one line.
      const text = content
        .replace(/\s+/g, (run) => (/[\n]/.test(run) ? ' ' : run))
        .replace(/\|/g, '\\|')
        .trim();
      return `${node.parentNode?.firstChild === node ? '| ' : ' '}${text} |`;
    },
  },
  {
    filter: (node) =>
      node.nodeName === 'INPUT' &&
      (node.getAttribute('type') ?? '').toLowerCase() === 'checkbox' &&
      node.parentNode?.nodeName === 'LI',
    replacement: (_, node) => `${node.hasAttribute('checked') ? '[x]' : '[ ]'} `,
  },
  { filter: named('THEAD', 'TBODY', 'TFOOT'), replacement: (content) => content },
  {
    filter: (node) => node.nodeName === 'TABLE' && isHeadingRow(firstRow(node)),
    replacement: (content) => `\n\n${content.replace('\n\n', '\n')}\n\n`,
  },
  { filter: named('TR'), replacement: tableRow },
  { filter: named('DEL', 'S', 'STRIKE'), replacement: (content) => `~${content}~` },
  {
    filter: (node) =>
      node.nodeName === 'DIV' && HIGHLIGHTED.test(node.className) && node.firstChild?.nodeName === 'PRE',
    replacement: (_, node) =>
      `\n\n\`\`\`${HIGHLIGHTED.exec(node.className)?.[1] ?? ''}\n${node.firstChild!.textContent}\n\`\`\`\n\n`,
  },
  { filter: named('P'), replacement: (content) => `\n\n${content}\n\n` },
  { filter: named('BR'), replacement: () => '  \n' },
  {
    filter: named('H1', 'H2', 'H3', 'H4', 'H5', 'H6'),
    replacement: (content, node) => `\n\n${'#'.repeat(Number(node.nodeName.charAt(1)))} ${content}\n\n`,
  },
  {
    filter: named('BLOCKQUOTE'),
    replacement: (content) => `\n\n${trimNewlines(content).replace(/^/gm, '> ')}\n\n`,
  },
  {
    filter: named('UL', 'OL'),
    replacement: (content, node) => {
      const parent = node.parentNode as Element;
      return parent.nodeName === 'LI' && parent.lastElementChild === node
        ? `\n${content}`
        : `\n\n${content}\n\n`;
    },
  },
  { filter: named('LI'), replacement: listItem },
  {
    filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName === 'CODE',
    replacement: (_, node) => fencedCode(node),
  },
  { filter: named('HR'), replacement: () => '\n\n---\n\n' },
  {
    filter: (node) => node.nodeName === 'A' && !!node.getAttribute('href'),
    replacement: (content, node) => {
      const title = escapeLinkTitle(cleanAttribute(node.getAttribute('title')));
      return `[${content}](${markdownUrl(node.getAttribute('href')!)}${title ? ` "${title}"` : ''})`;
    },
  },
  { filter: named('EM', 'I'), replacement: (content) => (content.trim() ? `*${content}*` : '') },
  { filter: named('STRONG', 'B'), replacement: (content) => (content.trim() ? `**${content}**` : '') },
  {
    filter: (node) => {
      const alone = !node.previousSibling && !node.nextSibling;
      return node.nodeName === 'CODE' && !(node.parentNode?.nodeName === 'PRE' && alone);
    },
    replacement: inlineCode,
  },
  {
    filter: named('IMG'),
    replacement: (_, node) => {
      const alt = escapeMarkdown(cleanAttribute(node.getAttribute('alt')));
      const src = markdownUrl(node.getAttribute('src') ?? '');
      const title = cleanAttribute(node.getAttribute('title'));
      return src ? `![${alt}](${src}${title ? ` "${escapeLinkTitle(title)}"` : ''})` : '';
    },
  },
  // A table without a heading row stays HTML (normalizeTables gives every data table one).
  {
    filter: (node) => node.nodeName === 'TABLE',
    replacement: (_, node) => `\n\n${node.outerHTML}\n\n`,
  },
  // Cleanup already removed these; this keeps their text out even if something slipped through.
  { filter: named('SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'), replacement: () => '' },
];

/** What turndown does with any other element: its content, on lines of its own for a block. */
export const DEFAULT_RULE: Rule = {
  filter: () => true,
  replacement: (content, node) => (isBlock(node) ? `\n\n${content}\n\n` : content),
};
