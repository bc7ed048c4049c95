import { extractMainContent, jsonLdNodes, readPageProfile, squish } from '@app/extract';
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

/**
 * Between a page's headline and its site's name in a <title>: "Story | Site", "Site - Story",
 * "Story • Site", "Thread @ Forum", Chinese sites' "Story_Section_Site".
 */
const TITLE_SEPARATORS = [
  ' | ',
  ' - ',
  ' – ',
  ' — ',
  ' :: ',
  ' · ',
  ' » ',
  ': ',
  ' • ',
  ' « ',
  ' / ',
  ' > ',
  ' @ ',
  ' _',
  '_',
];

/** A heading's link in markdown, `[text](url)`: its text is what is read. */
const LINK = /\[([^\]\n]*)\]\([^)\n]*\)/g;

/** A heading's permalink marks after its text ("Title¶", "Title #"): anchors, not words. */
const PERMALINK_MARKS = ['¶', '§', '🔗'];

/**
 * `text` less the permalink marks it ends with, each after a space or not, read from the end (a
 * pattern anchored at the end retried from every " #" of a hostile heading: quadratic).
 */
function withoutPermalinks(text: string): string {
  let end = text.length;
  for (let found = true; found && end > 0;) {
    const mark = text.endsWith(' #', end) ? ' #' : PERMALINK_MARKS.find((m) => text.endsWith(m, end));
    found = mark !== undefined;
    if (mark) end -= mark.length + (mark !== ' #' && text.endsWith(' ', end - mark.length) ? 1 : 0);
  }
  return text.slice(0, end);
}

/** A title is a line: a longer heading is not read as one. */
const MAX_TITLE_CHARS = 1000;

/**
 * Links' text, markdown escapes and permalink marks dropped, whitespace collapsed, quotes straight
 * (a <title> often has "" where its h1 has “”), lower case: titles compared as read.
 */
const readAs = (text: string) =>
  withoutPermalinks(squish(text.replace(LINK, '$1').replace(/\\(.)/g, '$1')))
    .replace(/[“”„]/g, '"')
    .replace(/[‘’‚]/g, "'")
    .toLowerCase();

/** The page's title as headings are compared with it (asTitle): read once for all of them. */
const readTitle = (title: string) => readAs(title.slice(0, MAX_TITLE_CHARS));

/**
 * How a heading's text reads against the page's title `t` (readTitle): the title itself (`same`),
 * the title less the site's name (`less`: "Story" of "Story | Site"), or the title and more
 * (`more`: "Story: what happened" of "Story"); undefined when it is another heading.
 */
function asTitle(heading: string, t: string): 'same' | 'less' | 'more' | undefined {
  if (heading.length > MAX_TITLE_CHARS) return undefined;
  const h = readAs(heading);
  if (!h || !t) return undefined;
  if (h === t) return 'same';
  const within = (long: string, short: string) =>
    TITLE_SEPARATORS.some((sep) => long.startsWith(short + sep) || long.endsWith(sep + short));
  if (within(t, h)) return 'less';
  return within(h, t) ? 'more' : undefined;
}

/** How many blocks of the content may come before its own title heading (a date, breadcrumbs). */
const TITLE_SEARCH_BLOCKS = 5;

/**
 * The markdown of a page starts with its title as a level-1 heading, with or without
 * `only_main_content`; the content's own heading of that title, near its start, is not repeated:
 * when it is the title less the site's name, or a top heading holding the title and more (its
 * subtitle), it is the title heading itself, moved up (the page's own headline, without the site).
 * `headline` (headlineOf) stands for the title when the content has no such heading.
 */
export function withTitle(markdown: string, title: string | null, headline?: string): string {
  if (!title) return markdown;
  let heading = titleHeading(headline ?? title);
  const read = readTitle(title);
  let start = 0;
  for (let block = 0; block < TITLE_SEARCH_BLOCKS && start < markdown.length; block++) {
    const found = markdown.indexOf('\n\n', start);
    const end = found === -1 ? markdown.length : found;
    const [, level, text] = /^(#{1,6}) ([^\n]+)$/.exec(markdown.slice(start, end)) ?? [];
    const match = text === undefined ? undefined : asTitle(text, read);
    // The title and more is the page's title only in a top heading (Readability makes an h1 an h2).
    if (match && (match !== 'more' || level.length <= 2)) {
      if (match !== 'same') heading = `# ${withoutPermalinks(text.replace(LINK, '$1'))}`;
      markdown = (markdown.slice(0, start) + markdown.slice(end + 2)).trim();
      break;
    }
    start = end + 2;
  }
  return markdown ? `${heading}\n\n${markdown}` : heading;
}

/** h1s, then h2s, read for the page's headline. */
const MAX_HEADLINES = 20;

/** Letters and digits only, lower case: a name as a host spells it ("Lecker" of lecker.de). */
const compact = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The longest label of the URL's host but its last and "www" ("lecker" of www.lecker.de). */
function hostName(url: string | undefined): string | undefined {
  let labels: string[];
  try {
    labels = new URL(url ?? '').hostname.split('.').slice(0, -1);
  } catch {
    return undefined;
  }
  const name = labels.filter((label) => label !== 'www').reduce((a, b) => (b.length > a.length ? b : a), '');
  return name.length >= 3 ? name : undefined;
}

/**
 * The title less the site's name, when the title gives it before or after a separator: the name
 * the metadata gives (`site`), else a part that names the URL's host ("Recipe | LECKER" of
 * lecker.de, "News | Liberty University" of liberty.edu).
 */
function titleLessSite(title: string, site: string | null | undefined, url?: string): string | undefined {
  const [t, name] = [title, site].map((text) => squish(text));
  const [lower, lowerName] = [t.toLowerCase(), name.toLowerCase()];
  if (name && t.length > name.length)
    for (const sep of TITLE_SEPARATORS) {
      if (lower.endsWith(sep + lowerName)) return t.slice(0, t.length - sep.length - name.length).trim();
      if (lower.startsWith(lowerName + sep)) return t.slice(name.length + sep.length).trim();
    }
  const host = hostName(url);
  if (!host) return undefined;
  const names = (part: string) => {
    const letters = compact(part);
    // A short host inside a word ("art" in "Smart") names nothing: at the start, or long, it does.
    return (
      letters.length >= 3 &&
      (letters.startsWith(host) || host.startsWith(letters) || (host.length >= 6 && letters.includes(host)))
    );
  };
  for (const sep of TITLE_SEPARATORS) {
    const last = t.lastIndexOf(sep);
    if (last > 0 && names(t.slice(last + sep.length))) return t.slice(0, last).trim();
    const first = t.indexOf(sep);
    if (first > 0 && first + sep.length < t.length && names(t.slice(0, first)))
      return t.slice(first + sep.length).trim();
  }
  return undefined;
}

/**
 * Whether a heading is the site's own, the other part of a "Story | Site" title: the site's name,
 * or a heading of the page's banner (a header outside any article or main: a blog theme's h1).
 */
function namesSite(heading: Element, text: string, site: string | null | undefined): boolean {
  if (site && compact(site) === compact(text)) return true;
  return !!heading.closest('header, [role="banner"]') && !heading.closest('article, main, [role="main"]');
}

/**
 * The page's own headline: the first h1, else h2 (a blog's theme gives its name the h1), whose text
 * is the title less the site's name ("Story" of "Story | Site"), read before the extraction, which
 * may leave it out (Readability drops a heading that repeats the title; a page's header holds it);
 * else the title less the site's name (titleLessSite): the metadata's, or the one a banner's heading gives.
 */
export function headlineOf(
  document: Document,
  title: string | null,
  site?: string | null,
  url?: string,
): string | undefined {
  if (!title) return undefined;
  const read = readTitle(title);
  // The site's own heading, when it is part of the title, names the part to leave out.
  let banner: string | undefined;
  for (const tag of ['h1', 'h2'])
    for (const heading of [...document.querySelectorAll(tag)].slice(0, MAX_HEADLINES)) {
      const text = withoutPermalinks(squish(heading.textContent));
      if (asTitle(text, read) !== 'less') continue;
      if (!namesSite(heading, text, site)) return text;
      banner ??= text;
    }
  return titleLessSite(title, site ?? banner, url) || undefined;
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
  const headline = wants.has('markdown')
    ? headlineOf(document, metadata.title, metadata.site_name, url)
    : undefined;
  let root = applyTagFilters(document, options.include_tags, options.exclude_tags);
  if (mainOnly) root = extractMainContent(document, kind, jsonLd);
  const html = wants.has('html') ? root.innerHTML.trim() : undefined;
  const text = wants.has('text') ? elementToText(root) : undefined;
  // Last: the conversion reshapes the element.
  const markdown = wants.has('markdown')
    ? withTitle(elementToMarkdown(root), metadata.title, headline)
    : undefined;
  return {
    ...(markdown !== undefined ? { markdown } : {}),
    ...(html !== undefined ? { html } : {}),
    ...(wants.has('raw_html') ? { raw_html: body } : {}),
    ...(text !== undefined ? { text } : {}),
    ...(links ? { links } : {}),
    metadata,
  };
}
