import { dirname, join } from 'node:path';
import { NO_METADATA } from '@app/queue-contracts';
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PageFailure } from '../page-errors';
import { absoluteUrl } from './html-document';
import { DEFAULT_MAX_LINKS } from './links';
import { withTitle, type ContentOptions, type PageContent } from './page-content';
import { checkInflation } from './pdf-inflation';
import { layoutPdf, pdfHtml, pdfMarkdown, pdfText, type PdfLink, type PdfPageText } from './pdf-layout';

/** The PDF bounds of a content thread (libs/config: PDF_MAX_PAGES, PDF_MAX_INFLATED_BYTES). */
export interface PdfLimits {
  maxPages: number;
  maxInflatedBytes: number;
}

export interface PdfInput {
  bytes: Uint8Array;
  url: string;
  options: ContentOptions;
  limits: PdfLimits;
  maxLinks?: number;
}

let pdfjs: typeof PdfJs | undefined;
let assets: { cMapUrl: string; standardFontDataUrl: string } | undefined;

/**
 * pdf.js, loaded on a thread's first PDF (a few MB of code most threads never need). Its worker
 * runs in this thread (the "fake worker", handed to it on globalThis): the content thread is
 * already off the event loop and bounded, and a nested worker would escape its heap cap. CMaps and
 * the standard fonts' metrics come from the package's own files, never the network.
 */
function loadPdfjs(): typeof PdfJs {
  if (!pdfjs) {
    // require() of an ES module (Node >= 22.12): the thread's code is CommonJS.
    /* eslint-disable @typescript-eslint/no-require-imports */
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = require('pdfjs-dist/legacy/build/pdf.worker.mjs');
    pdfjs = require('pdfjs-dist/legacy/build/pdf.mjs') as typeof PdfJs;
    /* eslint-enable @typescript-eslint/no-require-imports */
    const root = dirname(require.resolve('pdfjs-dist/package.json'));
    assets = { cMapUrl: join(root, 'cmaps') + '/', standardFontDataUrl: join(root, 'standard_fonts') + '/' };
  }
  return pdfjs;
}

const unsupported = (why: string) => new PageFailure('UNSUPPORTED_CONTENT', why);

/** pdf.js's refusals as the page's error: a PDF that cannot be read is not a page to convert. */
function openFailure(err: unknown): PageFailure {
  const { name, message } = err as Error;
  if (name === 'PasswordException') return unsupported('the PDF is encrypted and needs a password to open');
  if (name === 'InvalidPDFException') return unsupported(`the PDF is malformed: ${message}`);
  return unsupported(`the PDF could not be read: ${message}`);
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** Link annotations' targets, absolute, http(s) and mailto only (as a page's links). */
type Annotation = { subtype?: string; url?: string; overlaidText?: string };

function pdfLinks(annotations: Annotation[], base: string) {
  const links: PdfLink[] = [];
  for (const a of annotations) {
    if (a.subtype !== 'Link' || !a.url) continue;
    const url = absoluteUrl(a.url, base);
    if (url && /^(https?|mailto):/i.test(url)) links.push({ url, text: a.overlaidText ?? '' });
  }
  return links;
}

/**
 * A PDF's formats (docs/api.md, PDF documents): its whole text in reading order whatever
 * `only_main_content` says (a PDF has no page chrome to remove), headings by font size, page breaks
 * marked, its link annotations kept; metadata from its Info dictionary.
 */
export async function buildPdfContent({
  bytes,
  url,
  options,
  limits,
  maxLinks,
}: PdfInput): Promise<PageContent> {
  await checkInflation(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    limits.maxInflatedBytes,
  );
  const lib = loadPdfjs();
  const task = lib.getDocument({
    data: bytes,
    ...assets,
    disableFontFace: true,
    useSystemFonts: false,
    isOffscreenCanvasSupported: false,
    verbosity: lib.VerbosityLevel.ERRORS,
  });
  let document: PdfJs.PDFDocumentProxy;
  try {
    document = await task.promise;
  } catch (err) {
    await task.destroy();
    throw openFailure(err);
  }
  try {
    if (document.numPages > limits.maxPages) {
      throw new PageFailure(
        'TOO_COMPLEX',
        `the PDF has ${document.numPages} pages, more than PDF_MAX_PAGES=${limits.maxPages}`,
      );
    }
    const wants = new Set(options.formats);
    const pages: PdfPageText[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const content = await page.getTextContent();
      const items = content.items.flatMap((item) => {
        if (!('str' in item)) return [];
        // pdf.js types the text matrix as any[]: [a, b, c, d, x, y].
        const [, , c, d, x, y] = item.transform as number[];
        return [{ str: item.str, x, y, size: Math.hypot(c, d), width: item.width }];
      });
      const annotations = (await page.getAnnotations({ intent: 'display' })) as Annotation[];
      pages.push({ items, links: pdfLinks(annotations, url) });
      page.cleanup();
    }
    const { info } = (await document.getMetadata()) as { info: Record<string, unknown> };
    const title = text(info.Title);
    // Under the title's `# ` heading the document's own headings start one level down.
    const blocks = layoutPdf(pages, title ? 2 : 1);
    const links = [...new Set(pages.flatMap((p) => p.links.map((l) => l.url)))].slice(
      0,
      maxLinks ?? DEFAULT_MAX_LINKS,
    );
    const created = text(info.CreationDate) && lib.PDFDateString.toDateObject(info.CreationDate as string);
    return {
      ...(wants.has('markdown') ? { markdown: withTitle(pdfMarkdown(blocks), title) } : {}),
      ...(wants.has('html') ? { html: pdfHtml(blocks) } : {}),
      ...(wants.has('text') ? { text: pdfText(blocks) } : {}),
      ...(wants.has('links') ? { links } : {}),
      metadata: {
        ...NO_METADATA,
        title,
        author: text(info.Author),
        description: text(info.Subject),
        language: text(info.Language),
        published_at: created ? created.toISOString() : null,
        page_count: document.numPages,
      },
    };
  } finally {
    await task.destroy();
  }
}
