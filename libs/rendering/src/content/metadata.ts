import { type JsonLdNode as Node, jsonLdNodes, squish, typesOf } from '@app/extract';
import type { DocumentMetadata } from '@app/queue-contracts';
import { absoluteUrl } from './html-document';

const collapse = (text: string | null | undefined) => squish(text) || null;

/** `meta[attribute="value"]`, with ` i` for a value of any case: the only selectors metaContent reads. */
const META_SELECTOR = /^meta\[([\w:-]+)="([^"]*)"( i)?\]$/;

/**
 * For the selectors in turn, until one yields content: the content of the first meta element (in
 * document order) it matches, as document.querySelector finds it, but over the meta elements
 * gathered once instead of a walk of the whole document per selector.
 */
function metaContent(metas: Element[], selectors: string[]): string | null {
  for (const selector of selectors) {
    const [, attribute, wanted, anyCase] = META_SELECTOR.exec(selector) ?? [];
    if (!attribute) throw new Error(`not a meta selector: ${selector}`);
    const meta = metas.find((m) => {
      const value = m.getAttribute(attribute);
      return anyCase ? value?.toLowerCase() === wanted.toLowerCase() : value === wanted;
    });
    const value = collapse(meta?.getAttribute('content'));
    if (value) return value;
  }
  return null;
}

/** Schema.org types that describe the page's own content, most telling first. */
const CONTENT_TYPES = /Article|BlogPosting|Report|Review|Recipe|Product|Question|Posting|Event|Course|HowTo/;

/** The node describing the page: an article, product or the like, else a WebPage, else the first. */
function mainNode(nodes: Node[]): Node | undefined {
  return (
    nodes.find((n) => typesOf(n).some((t) => CONTENT_TYPES.test(t))) ??
    nodes.find((n) => typesOf(n).some((t) => /WebPage$/.test(t))) ??
    nodes.find((n) => !typesOf(n).some((t) => /^(WebSite|Organization|BreadcrumbList)$/.test(t)))
  );
}

/** A name out of a JSON-LD value: a string, {name}, or a list of them (joined); nesting bounded. */
function nameOf(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return collapse(value);
  if (depth > 3) return null;
  if (Array.isArray(value)) {
    const names = value
      .slice(0, 10)
      .map((v) => nameOf(v, depth + 1))
      .filter(Boolean);
    return names.length ? names.join(', ') : null;
  }
  if (value && typeof value === 'object') return nameOf((value as Node).name, depth + 1);
  return null;
}

const text = (value: unknown) => (typeof value === 'string' ? collapse(value) : null);
const isUrl = (value: string) => /^https?:\/\//i.test(value);

/** ISO 8601: a date alone stays a date; a date and time becomes UTC. Null when it is no date. */
export function isoDate(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) return Number.isNaN(Date.parse(trimmed)) ? null : trimmed;
  // Only ISO-like or RFC 2822 dates: Date.parse would also read "5" or "March" as some date.
  const iso = /^\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}/.test(trimmed);
  if (!iso && !/^(\w{3}, )?\d{1,2} \w{3} \d{4}/.test(trimmed)) return null;
  const time = Date.parse(iso ? trimmed.replace(' ', 'T') : trimmed);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** Longest author name read from the visible page: a byline holds more than the name. */
const MAX_DOM_AUTHOR = 80;

/** A byline's name: without its dates, a leading "By", or what follows a separator. */
function domAuthor(document: Document): string | null {
  const element = document.querySelector(
    '[itemprop="author"] [itemprop="name"], [itemprop="author"], a[rel~="author"], .byline .author, .byline',
  );
  let line = collapse(element?.textContent) ?? '';
  for (const time of element?.querySelectorAll('time') ?? [])
    line = line.replace(collapse(time.textContent) ?? '', '');
  const name = collapse(line.split(/\s[·|•—–]\s|,\s/)[0].replace(/^\s*by\s+/i, ''));
  return name && name.length <= MAX_DOM_AUTHOR ? name : null;
}

function author(document: Document, metas: Element[], node: Node | undefined): string | null {
  const fromMeta = metaContent(metas, ['meta[name="author" i]', 'meta[property="article:author"]']);
  // article:author is often the author's profile URL: a name only.
  return [nameOf(node?.author), fromMeta, domAuthor(document)].find((name) => name && !isUrl(name)) ?? null;
}

function publishedAt(document: Document, metas: Element[], node: Node | undefined): string | null {
  const candidates = [
    text(node?.datePublished),
    metaContent(metas, [
      'meta[property="article:published_time"]',
      'meta[itemprop="datePublished"]',
      'meta[name="date" i]',
      'meta[name="publish-date" i]',
      'meta[name="pubdate" i]',
      'meta[name="dc.date.issued" i]',
      'meta[name="dcterms.created" i]',
    ]),
    document
      .querySelector('[itemprop="datePublished"][datetime], time[pubdate][datetime], .byline time[datetime]')
      ?.getAttribute('datetime'),
    text(node?.dateCreated),
  ];
  for (const candidate of candidates) {
    const date = isoDate(candidate);
    if (date) return date;
  }
  return null;
}

function language(document: Document, metas: Element[], node: Node | undefined): string | null {
  const locale = metaContent(metas, ['meta[property="og:locale"]'])?.replace('_', '-');
  return (
    collapse(document.documentElement?.getAttribute('lang')) ??
    metaContent(metas, ['meta[http-equiv="content-language" i]']) ??
    text(node?.inLanguage) ??
    locale ??
    null
  );
}

function siteName(metas: Element[], nodes: Node[], node: Node | undefined): string | null {
  const website = nodes.find((n) => typesOf(n).includes('WebSite'));
  return (
    metaContent(metas, ['meta[property="og:site_name"]']) ??
    nameOf((node?.publisher as Node | undefined)?.name) ??
    text(website?.name) ??
    metaContent(metas, ['meta[name="application-name" i]', 'meta[name="apple-mobile-web-app-title" i]'])
  );
}

function canonicalUrl(document: Document, baseUrl: string): string | null {
  const canonical = document.querySelector('link[rel~="canonical"][href]')?.getAttribute('href');
  return canonical ? (absoluteUrl(canonical, baseUrl) ?? null) : null;
}

/**
 * The page's metadata, read before any cleanup removes <head> and the scripts: the page's own
 * declarations first (JSON-LD, OpenGraph, meta tags), then what the visible DOM says.
 */
export function extractMetadata(
  document: Document,
  baseUrl: string,
  nodes = jsonLdNodes(document),
): DocumentMetadata {
  const node = mainNode(nodes);
  const metas = [...document.querySelectorAll('meta')];
  const title =
    collapse(document.querySelector('title')?.textContent) ??
    metaContent(metas, ['meta[property="og:title"]', 'meta[name="twitter:title"]']) ??
    text(node?.headline) ??
    collapse(document.querySelector('h1')?.textContent);
  const description =
    metaContent(metas, [
      'meta[name="description" i]',
      'meta[property="og:description"]',
      'meta[name="twitter:description"]',
    ]) ?? text(node?.description);
  return {
    title,
    description,
    author: author(document, metas, node),
    published_at: publishedAt(document, metas, node),
    language: language(document, metas, node),
    canonical_url: canonicalUrl(document, baseUrl),
    site_name: siteName(metas, nodes, node),
  };
}
