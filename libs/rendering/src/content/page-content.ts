import type { PageMetadata, PageResult, ScrapeOptions } from '@app/queue-contracts';
import type { ContentKind } from './content-kind';
import { absolutizeUrls, applyTagFilters, baseUrlOf, parseDocument, removeNonContent } from './html-document';
import { extractLinks } from './links';
import { mainContent } from './main-content';
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
  kind: Exclude<ContentKind, 'unsupported'>;
  /** The final URL: relative references resolve against it. */
  url: string;
  options: ContentOptions;
  /** `body` already parsed (render: auto parses it to decide); it is modified here. */
  document?: Document;
}

export type PageContent = Pick<PageResult, 'markdown' | 'html' | 'raw_html' | 'text' | 'links'> & {
  metadata: Omit<PageMetadata, 'engine'>;
};

const NO_METADATA = { title: null, description: null, language: null, canonical_url: null };

function fenced(code: string, language: string): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${code.replace(/\n$/, '')}\n${fence}`;
}

/** The markdown of a page starts with its title as a level-1 heading, with or without `only_main_content`. */
function withTitle(markdown: string, title: string | null): string {
  if (!title) return markdown;
  const heading = titleHeading(title);
  if (markdown === heading || markdown.startsWith(`${heading}\n`)) return markdown;
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
  const metadata = extractMetadata(document, base);
  absolutizeUrls(document, base);
  const links = wants.has('links') ? extractLinks(document) : undefined;
  removeNonContent(document);
  let root = applyTagFilters(document, options.include_tags, options.exclude_tags);
  if (options.only_main_content && !options.include_tags?.length) root = mainContent(document);
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
