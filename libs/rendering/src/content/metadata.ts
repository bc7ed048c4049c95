import type { PageMetadata } from '@app/queue-contracts';
import { absoluteUrl } from './html-document';

const collapse = (text: string | null | undefined) => text?.replace(/\s+/g, ' ').trim() || null;

function metaContent(document: Document, selectors: string[]): string | null {
  for (const selector of selectors) {
    const value = collapse(document.querySelector(selector)?.getAttribute('content'));
    if (value) return value;
  }
  return null;
}

/** Title, description, language and canonical URL, read before any cleanup removes <head>. */
export function extractMetadata(document: Document, baseUrl: string): Omit<PageMetadata, 'engine'> {
  const title =
    collapse(document.querySelector('title')?.textContent) ??
    metaContent(document, ['meta[property="og:title"]', 'meta[name="twitter:title"]']) ??
    collapse(document.querySelector('h1')?.textContent);
  const description = metaContent(document, [
    'meta[name="description"]',
    'meta[property="og:description"]',
    'meta[name="twitter:description"]',
  ]);
  const language =
    collapse(document.documentElement?.getAttribute('lang')) ??
    metaContent(document, ['meta[http-equiv="content-language" i]']);
  const canonical = document.querySelector('link[rel~="canonical"][href]')?.getAttribute('href');
  return {
    title,
    description,
    language,
    canonical_url: canonical ? (absoluteUrl(canonical, baseUrl) ?? null) : null,
  };
}
