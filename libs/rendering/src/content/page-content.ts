import { extractMainContent, jsonLdNodes, readPageProfile } from '@app/extract';
import {
  NO_METADATA,
  type DocumentMetadata,
  type PageResult,
  type ScrapeOptions,
} from '@app/queue-contracts';
import type { ContentKind } from './content-kind';
import { absolutizeUrls, applyTagFilters, baseUrlOf, parseDocument, removeNonContent } from './html-document';
import { extractLinks } from './links';
import { elementToMarkdown, titleHeading } from './markdown';
import { extractMetadata } from './metadata';
import { elementToText } from './plain-text';

export type ContentOptions = Pick<
  ScrapeOptions,
  'formats' | 'only_main_content' | 'include_tags' | 'exclude_tags'
>;

export interface ContentInput {
  /** The document's HTML (as rendered or as fetched), or the text of a text document. */
  body: string;
  kind: Exclude<ContentKind, 'unsupported' | 'pdf'>;
  /** The final URL: relative references resolve against it. */
  url: string;
  options: ContentOptions;
  /** `body` already parsed (render: auto parses it to decide); it is modified here. */
  document?: Document;
  /** LINKS_MAX_PER_PAGE: links past it are not taken. */
  maxLinks?: number;
}

export type PageContent = Pick<PageResult, 'markdown' | 'html' | 'raw_html' | 'text' | 'links'> & {
  metadata: DocumentMetadata;
};

function fenced(code: string, language: string): string {
  const longest = (code.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 2);
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${code.replace(/\n$/, '')}\n${fence}`;
}

/** Between a page's headline and its site's name in a <title>: "Story | Site", "Site - Story". */
const TITLE_SEPARATORS = [' | ', ' - ', ' – ', ' — ', ' :: ', ' · ', ' » ', ': '];

/** Markdown escapes dropped, whitespace collapsed, lower case: titles compared as read. */
const readAs = (text: string) => text.replace(/\\(.)/g, '$1').replace(/\s+/g, ' ').trim().toLowerCase();

/** Whether a heading's text is the page's title, or the title less the site's name. */
function isTitle(heading: string, title: string): boolean {
  const [h, t] = [readAs(heading), readAs(title)];
  return !!h && (h === t || TITLE_SEPARATORS.some((sep) => t.startsWith(h + sep) || t.endsWith(sep + h)));
}

/** How many blocks of the content may come before its own title heading (a date, breadcrumbs). */
const TITLE_SEARCH_BLOCKS = 5;

/**
 * The markdown of a page starts with its title as a level-1 heading, with or without
 * `only_main_content`; the content's own heading of that title, near its start, is not repeated.
 */
export function withTitle(markdown: string, title: string | null): string {
  if (!title) return markdown;
  const heading = titleHeading(title);
  let start = 0;
  for (let block = 0; block < TITLE_SEARCH_BLOCKS && start < markdown.length; block++) {
    const found = markdown.indexOf('\n\n', start);
    const end = found === -1 ? markdown.length : found;
    const text = /^#{1,6} ([^\n]+)$/.exec(markdown.slice(start, end))?.[1];
    if (text !== undefined && isTitle(text, title)) {
      markdown = (markdown.slice(0, start) + markdown.slice(end + 2)).trim();
      break;
    }
    start = end + 2;
  }
  return markdown ? `${heading}\n\n${markdown}` : heading;
}

/** Text and JSON documents come back as they are; markdown fences JSON. */
function textContent({ body, kind, options }: ContentInput): PageContent {
  const wants = new Set(options.formats);
  return {
    ...(wants.has('markdown') ? { markdown: kind === 'json' ? fenced(body, 'json') : body } : {}),
    ...(wants.has('text') ? { text: body } : {}),
    ...(wants.has('links') ? { links: [] } : {}),
    metadata: NO_METADATA,
  };
}

/**
 * The content formats of a page: metadata and links from the whole document; html, text and
 * markdown from what is left after cleanup, include_tags/exclude_tags, and only_main_content (which
 * include_tags overrides: the caller has already said what the content is).
 */
export function buildContent(input: ContentInput): PageContent {
  if (input.kind !== 'html') return textContent(input);
  const { body, url, options } = input;
  const wants = new Set(options.formats);
  const document = input.document ?? parseDocument(body);
  const base = baseUrlOf(document, url);
  // Read once, before the cleanup removes the scripts: for the metadata and the page's kind.
  const jsonLd = jsonLdNodes(document);
  const metadata = extractMetadata(document, base, jsonLd);
  absolutizeUrls(document, base);
  const links = wants.has('links') ? extractLinks(document, input.maxLinks) : undefined;
  // The content root (main content: the costly part) is only for html, text and markdown.
  if (!wants.has('html') && !wants.has('text') && !wants.has('markdown'))
    return { ...(wants.has('raw_html') ? { raw_html: body } : {}), ...(links ? { links } : {}), metadata };
  const mainOnly = options.only_main_content && !options.include_tags?.length;
  // What the page says it is, from the scripts and meta tags the cleanup removes.
  const kind = mainOnly ? readPageProfile(document, jsonLd) : undefined;
  removeNonContent(document);
  let root = applyTagFilters(document, options.include_tags, options.exclude_tags);
  if (mainOnly) root = extractMainContent(document, kind, jsonLd);
  const html = wants.has('html') ? root.innerHTML.trim() : undefined;
  const text = wants.has('text') ? elementToText(root) : undefined;
  // Last: the conversion reshapes the element.
  const markdown = wants.has('markdown') ? withTitle(elementToMarkdown(root), metadata.title) : undefined;
  return {
    ...(markdown !== undefined ? { markdown } : {}),
    ...(html !== undefined ? { html } : {}),
    ...(wants.has('raw_html') ? { raw_html: body } : {}),
    ...(text !== undefined ? { text } : {}),
    ...(links ? { links } : {}),
    metadata,
  };
}
