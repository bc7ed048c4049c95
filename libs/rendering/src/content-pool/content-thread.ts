import { parseDocument } from '../content/html-document';
import { needsJavaScript } from '../content/needs-javascript';
import { buildContent, type ContentInput, type PageContent } from '../content/page-content';
import { buildPdfContent, type PdfInput } from '../content/pdf-content';
import { firstLine, PageFailure, type PageError } from '../page-errors';
import { poolTask } from './pool-task';

export type ContentTask =
  | {
      input: Omit<ContentInput, 'document'>;
      /** `render: auto` over http: say whether the page needs a browser, and build it only if not. */
      decide: boolean;
    }
  | { pdf: PdfInput };

/** `raw_html` is left out of `content`: it is the body, which the caller already holds. */
export type ContentAnswer =
  | { javascript: string }
  | { content: Omit<PageContent, 'raw_html'> }
  | { refused: PageError }
  | { failed: string };

/**
 * One page's content work in a pool thread (ContentPool): the parse, the `render: auto` decision
 * and the formats, together, since a parsed document cannot cross to another thread.
 */
function contentWork(task: ContentTask): ContentAnswer | Promise<ContentAnswer> {
  if ('pdf' in task) return buildPdfContent(task.pdf).then((content) => ({ content }), failure);
  const { input, decide } = task;
  try {
    let document: Document | undefined;
    if (decide && input.kind === 'html') {
      document = parseDocument(input.body);
      const verdict = needsJavaScript(document);
      if (verdict.needed) return { javascript: verdict.reason };
    }
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { raw_html, ...content } = buildContent({ ...input, document });
    return { content };
  } catch (err) {
    return failure(err);
  }
}

/** A bound of the content code itself (TOO_COMPLEX: too many tags) or an unreadable PDF keeps its code. */
function failure(err: unknown): ContentAnswer {
  if (err instanceof PageFailure) return { refused: err.toError() };
  return { failed: firstLine(err) };
}

export default poolTask(contentWork);
