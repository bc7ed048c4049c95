import { PDF_SIGNATURE_WITHIN, contentKind, isPdf, mayBePdf } from '../content/content-kind';
import type { BrowserEngine } from '@app/queue-contracts';
import type { Capture } from './engine';
import type { CdpClient, DocumentResponse } from './page-monitor';

/** A document's response paused by Fetch at the response stage (DOCUMENT_RESPONSES). */
export interface ResponsePaused {
  requestId: string;
  frameId: string;
  request: { url: string };
  responseStatusCode?: number;
  responseErrorReason?: string;
  responseHeaders?: { name: string; value: string }[];
}

/** Fetch.enable's pattern that pauses every document's response, its headers in hand. */
export const DOCUMENT_RESPONSES = { urlPattern: '*', resourceType: 'Document', requestStage: 'Response' };

/** IO.read's chunk: large enough that a 50 MB PDF takes tens of round trips, not thousands. */
const READ_CHUNK = 1024 * 1024;

/** What the main frame's PDF left: its bytes, or that it passed PDF_MAX_BYTES. */
export interface DocumentPdf {
  url: string;
  status: number;
  bytes?: Buffer;
  tooLarge?: boolean;
}

/**
 * Takes a PDF's bytes from the browser (docs/api.md, PDF documents). Headless Chromium has no PDF
 * viewer: a navigation to a PDF turns into a download, whose bytes no API hands back. So once a
 * main document turned out to be one (PageMonitor.readPdfAgain), the page is loaded again with each
 * document's response paused at its headers, and the main frame's PDF (by its type, or a generic
 * binary type and the signature) is read from its stream up to PDF_MAX_BYTES and the request
 * failed: the navigation ends and the render flow converts the bytes. Anything else goes on
 * untouched.
 */
export class DocumentPdfReader {
  /** The current page's PDF, once read. */
  pdf: DocumentPdf | undefined;

  constructor(
    private readonly cdp: CdpClient,
    private readonly maxBytes: number,
    private readonly isMainFrame: (frameId: string) => boolean,
    /**
     * The main document's response, for a document this reader takes: Chromium reports no
     * Network.responseReceived for a request failed at its headers.
     */
    private readonly onDocument: (document: DocumentResponse) => void,
  ) {}

  /** Before each page: a reused tab forgets the last one's PDF. */
  reset(): void {
    this.pdf = undefined;
  }

  async paused(e: ResponsePaused): Promise<void> {
    const type = e.responseHeaders?.find((h) => h.name.toLowerCase() === 'content-type')?.value;
    const ok =
      e.responseStatusCode !== undefined && (e.responseStatusCode < 300 || e.responseStatusCode >= 400);
    try {
      if (!ok || !this.isMainFrame(e.frameId) || !mayBePdf(type)) {
        await this.cdp.send('Fetch.continueResponse', { requestId: e.requestId });
        return;
      }
      const headers = Object.fromEntries(
        (e.responseHeaders ?? []).map((h) => [h.name.toLowerCase(), h.value]),
      );
      const document = { url: e.request.url, status: e.responseStatusCode!, headers };
      this.onDocument(document);
      const { stream } = (await this.cdp.send('Fetch.takeResponseBodyAsStream', {
        requestId: e.requestId,
      })) as { stream: string };
      // A generic binary that is not a PDF stays what it was (UNSUPPORTED_CONTENT): read no further.
      const read = await this.read(stream, contentKind(type) !== 'pdf');
      if (read.tooLarge || read.bytes) this.pdf = { url: document.url, status: document.status, ...read };
      await this.cdp.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'Aborted' });
    } catch {
      // The tab closed or the request went meanwhile: the render flow reports what it finds.
      await this.cdp.send('Fetch.continueResponse', { requestId: e.requestId }).catch(() => undefined);
    }
  }

  /** The stream's bytes up to PDF_MAX_BYTES; `sniff`: none unless its first bytes hold the signature. */
  private async read(stream: string, sniff: boolean): Promise<Pick<DocumentPdf, 'bytes' | 'tooLarge'>> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for (;;) {
        const { data, base64Encoded, eof } = (await this.cdp.send('IO.read', {
          handle: stream,
          size: READ_CHUNK,
        })) as {
          data: string;
          base64Encoded?: boolean;
          eof: boolean;
        };
        const chunk = Buffer.from(data, base64Encoded ? 'base64' : 'utf8');
        size += chunk.length;
        chunks.push(chunk);
        if (sniff && (size >= PDF_SIGNATURE_WITHIN || eof)) {
          if (!isPdf(Buffer.concat(chunks))) return {};
          sniff = false;
        }
        if (size > this.maxBytes) return { tooLarge: true };
        if (eof) return { bytes: Buffer.concat(chunks) };
      }
    } finally {
      await this.cdp.send('IO.close', { handle: stream }).catch(() => undefined);
    }
  }
}

/** The main document was a PDF: its bytes for the content threads, or TOO_LARGE past PDF_MAX_BYTES. */
export const pdfCapture = (
  engine: BrowserEngine,
  pdfMaxBytes: number,
  { url, status, bytes, tooLarge }: DocumentPdf,
): Capture => ({
  engine,
  finalUrl: url,
  status,
  ...(tooLarge
    ? { error: { code: 'TOO_LARGE', message: `the PDF exceeds ${pdfMaxBytes} bytes` } }
    : { pdf: bytes, kind: 'pdf' }),
});
