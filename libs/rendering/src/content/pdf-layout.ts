import { escapeMarkdown, markdownUrl } from './markdown-converter';
import { squish } from '@app/extract';

/** One run of text as pdf.js reads it: its baseline's start, its font size and its advance. */
export interface PdfTextItem {
  str: string;
  x: number;
  y: number;
  size: number;
  width: number;
}

/** A link annotation: its target and the text it covers (pdf.js's `overlaidText`). */
export interface PdfLink {
  url: string;
  text: string;
}

export interface PdfPageText {
  items: PdfTextItem[];
  links: PdfLink[];
}

interface Span {
  start: number;
  end: number;
  url: string;
}

interface Line {
  text: string;
  y: number;
  /** Font size of most of its characters. */
  size: number;
  links: Span[];
}

export type PdfBlock = { heading: number; lines: Line[] } | { heading?: undefined; lines: Line[] };

/** Heading sizes are this much larger than the body's. */
const HEADING_RATIO = 1.15;
/** A longer line is a paragraph in a large font, not a heading. */
const HEADING_MAX_CHARS = 200;
/** A gap between lines this much over the page's usual one starts a paragraph. */
const PARAGRAPH_GAP = 1.3;

const rounded = (size: number) => Math.round(size * 2) / 2;

/** Items into lines, in the order the content stream gives them (reading order in most PDFs). */
function toLines(items: PdfTextItem[]): Line[] {
  const lines: Line[] = [];
  let line: (Line & { endX: number; sizes: Map<number, number> }) | undefined;
  for (const item of items) {
    if (!item.str) continue;
    const size = rounded(item.size);
    if (!line || Math.abs(item.y - line.y) > Math.max(line.size, size) * 0.5) {
      line = { text: '', y: item.y, size, links: [], endX: item.x, sizes: new Map() };
      lines.push(line);
    } else if (item.x > line.endX + size * 0.15 && !/\s$/.test(line.text) && !/^\s/.test(item.str)) {
      // Runs placed apart with no space between them are words apart.
      line.text += ' ';
    }
    line.text += item.str;
    line.endX = item.x + item.width;
    line.sizes.set(size, (line.sizes.get(size) ?? 0) + item.str.length);
    line.size = [...line.sizes].reduce((most, next) => (next[1] > most[1] ? next : most))[0];
  }
  return lines
    .map(({ text, y, size, links }) => ({ text: squish(text), y, size, links }))
    .filter((l) => l.text);
}

/** The font size most characters of the document are set in. */
function bodySize(pages: Line[][]): number {
  const chars = new Map<number, number>();
  for (const line of pages.flat()) chars.set(line.size, (chars.get(line.size) ?? 0) + line.text.length);
  return [...chars].reduce((most, next) => (next[1] > most[1] ? next : most), [0, 0])[0];
}

/** Each link's text is marked on the first line of its page that holds it. */
function placeLinks(lines: Line[], links: PdfLink[]): void {
  for (const { url, text } of links) {
    const wanted = squish(text);
    if (!wanted) continue;
    for (const line of lines) {
      const start = line.text.indexOf(wanted);
      const end = start + wanted.length;
      if (start < 0 || line.links.some((s) => start < s.end && s.start < end)) continue;
      line.links.push({ start, end, url });
      line.links.sort((a, b) => a.start - b.start);
      break;
    }
  }
}

/**
 * The document's blocks page by page: headings where lines are set larger than the body (the
 * largest size level `firstLevel`, the next one below it, at most h6), paragraphs where the gap
 * between lines grows past the page's usual one.
 */
export function layoutPdf(pages: PdfPageText[], firstLevel: number): PdfBlock[][] {
  const linesByPage = pages.map((page) => {
    const lines = toLines(page.items);
    placeLinks(lines, page.links);
    return lines;
  });
  const body = bodySize(linesByPage);
  const isHeading = (line: Line) =>
    line.size >= body * HEADING_RATIO && line.text.length <= HEADING_MAX_CHARS;
  const headingSizes = [
    ...new Set(
      linesByPage
        .flat()
        .filter(isHeading)
        .map((l) => l.size),
    ),
  ].sort((a, b) => b - a);
  const level = (size: number) => Math.min(6, firstLevel + headingSizes.indexOf(size));
  return linesByPage.map((lines) => {
    const gaps = lines
      .slice(1)
      .map((line, i) => lines[i].y - line.y)
      .filter((gap) => gap > 0);
    const usualGap = gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)] ?? 0;
    const blocks: PdfBlock[] = [];
    for (const line of lines) {
      const previous = blocks.at(-1);
      const last = previous?.lines.at(-1);
      const gap = last ? last.y - line.y : 0;
      const heading = isHeading(line) ? level(line.size) : undefined;
      const joins =
        previous &&
        previous.heading === heading &&
        gap > 0 &&
        (heading !== undefined ? gap <= line.size * 2 : gap <= usualGap * PARAGRAPH_GAP);
      if (joins) previous.lines.push(line);
      else blocks.push(heading !== undefined ? { heading, lines: [line] } : { lines: [line] });
    }
    return blocks;
  });
}

/** A line's text with its links: each piece given to `text`, each link's to `link`. */
function renderLine(line: Line, text: (s: string) => string, link: (s: string, url: string) => string) {
  let out = '';
  let at = 0;
  for (const span of line.links) {
    out += text(line.text.slice(at, span.start)) + link(line.text.slice(span.start, span.end), span.url);
    at = span.end;
  }
  return out + text(line.text.slice(at));
}

/** Pages after the first start with this line in markdown (docs/api.md, PDF documents). */
export const pageMarker = (page: number) => `<!-- page ${page} -->`;

export function pdfMarkdown(pages: PdfBlock[][]): string {
  const line = (l: Line) =>
    renderLine(l, escapeMarkdown, (s, url) => `[${escapeMarkdown(s)}](${markdownUrl(url)})`);
  return pages
    .map((blocks, i) => {
      const rendered = blocks.map((block) =>
        block.heading !== undefined
          ? `${'#'.repeat(block.heading)} ${block.lines.map(line).join(' ')}`
          : block.lines.map(line).join('\n'),
      );
      return (i > 0 ? [pageMarker(i + 1), ...rendered] : rendered).join('\n\n');
    })
    .join('\n\n')
    .trim();
}

/** Plain text: blocks apart by a blank line, pages by a form feed on a line of its own. */
export function pdfText(pages: PdfBlock[][]): string {
  return pages
    .map((blocks) => blocks.map((block) => block.lines.map((l) => l.text).join('\n')).join('\n\n'))
    .join('\n\f\n')
    .trim();
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** One `<section data-page="N">` a page, headings as `<hN>`, paragraphs as `<p>` with `<br>`. */
export function pdfHtml(pages: PdfBlock[][]): string {
  const line = (l: Line) =>
    renderLine(l, escapeHtml, (s, url) => `<a href="${escapeHtml(url)}">${escapeHtml(s)}</a>`);
  return pages
    .map((blocks, i) => {
      const inner = blocks.map((block) =>
        block.heading !== undefined
          ? `<h${block.heading}>${block.lines.map(line).join(' ')}</h${block.heading}>`
          : `<p>${block.lines.map(line).join('<br>\n')}</p>`,
      );
      return `<section data-page="${i + 1}">\n${inner.join('\n')}\n</section>`;
    })
    .join('\n');
}
