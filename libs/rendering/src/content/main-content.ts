import { Readability } from '@mozilla/readability';

/** Past this many elements Readability takes seconds; such pages fall back to <main> or <body>. */
const MAX_ELEMENTS = 50_000;

/** Readability's pick is trusted only with at least this much text; less is usually a mis-pick. */
const MIN_ARTICLE_CHARS = 200;

const FALLBACKS = ['main', '[role="main"]', 'article'];

const textLength = (element: Element | null | undefined) =>
  (element?.textContent ?? '').replace(/\s+/g, ' ').trim().length;

/**
 * The element holding the page's main content (`only_main_content`): Readability's article when it
 * finds one, else <main>, [role=main] or <article>, else the body. Readability works on a copy, so
 * `document` is only added to, never rearranged.
 */
export function mainContent(document: Document): Element {
  const body = document.body ?? document.documentElement;
  try {
    const copy = document.cloneNode(true) as Document;
    // The article's element itself, in the copy: its markup serialized and parsed again cost
    // about 7% of a static page's worker CPU.
    const article = new Readability(copy, {
      maxElemsToParse: MAX_ELEMENTS,
      keepClasses: true,
      serializer: (node) => node as Element,
    }).parse();
    if (article?.content && textLength(article.content) >= MIN_ARTICLE_CHARS) return article.content;
  } catch {
    // Readability gives up on documents it cannot handle (too many elements); use the fallbacks.
  }
  for (const selector of FALLBACKS) {
    const candidate = body.querySelector(selector);
    if (textLength(candidate) > 0) return candidate!;
  }
  return body;
}
