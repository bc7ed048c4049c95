import { MAX_HTML_BYTES } from '@app/queue-contracts';
import { DeadlineError, sleep, withDeadline } from '../deadline';
import { DocumentPdfReader, type DocumentPdf } from './document-pdf';
import { OriginHeaderInjector, type HeadersForOrigin } from './origin-headers';
import { mayBePdf } from '../content/content-kind';
import { PageFailure } from '../page-errors';
import { readinessExpression, readinessInitScript } from './readiness';

/** The part of a CDP session both Playwright's and Puppeteer's sessions offer. */
export interface CdpClient {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: (params: never) => void): unknown;
}

/**
 * block_resources by file extension, as Chromium's own network layer matches them
 * (Network.setBlockedURLs): no interception round trip and the HTTP cache stays on, unlike
 * request interception (see docs/decisions.md, "Rendering"). Images served without an extension
 * still load.
 */
const BLOCKED_EXTENSIONS = [
  'png jpg jpeg gif webp avif bmp ico svg tif tiff apng jxl heic', // images
  'mp4 webm ogg ogv oga mp3 wav flac aac m4a m4v mov avi mkv opus m3u8 mpd', // media
  'woff woff2 ttf otf eot', // fonts
].flatMap((group) => group.split(' '));
export const BLOCKED_URL_PATTERNS = BLOCKED_EXTENSIONS.flatMap((ext) => [`*.${ext}`, `*.${ext}?*`]);

const SNAPSHOT_WORLD = '__scraper_snapshot__';
/**
 * The doctype and the markup, as page.content() of either engine reads them; only their length when
 * that is past `max` (UTF-16 units, never more than the UTF-8 bytes), so a huge DOM is not carried
 * over CDP into the worker.
 */
const serializeDocument = (max: number) => `(() => {
  const html = (document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '') +
    (document.documentElement ? document.documentElement.outerHTML : '');
  return html.length > ${max} ? html.length : html;
})()`;

/**
 * The HTML of the frame's document, serialized in a world of our own, so that the page's scripts
 * cannot change what is read. Not the engines' page.content(): both inject their helper scripts
 * into every new document for it, which cost about 100 ms of renderer CPU a page here
 * (docs/decisions.md, "Rendering").
 */
export async function readDocumentHtml(
  cdp: CdpClient,
  frameId: string,
  maxBytes = MAX_HTML_BYTES,
): Promise<string> {
  const value = await evaluateIsolated(cdp, frameId, serializeDocument(maxBytes));
  // Past V8's longest string the markup cannot even be built.
  if (typeof value === 'number' || value === INVALID_LENGTH) {
    throw new PageFailure('TOO_LARGE', `the document exceeds ${maxBytes} bytes`);
  }
  if (typeof value !== 'string') throw new Error('the document could not be read: no markup');
  return value;
}

const INVALID_LENGTH = Symbol('invalid string length');

/** Evaluates `expression` in our own world of the frame, out of reach of the page's scripts. */
async function evaluateIsolated(cdp: CdpClient, frameId: string, expression: string): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await evaluateOnce(cdp, frameId, expression);
    } catch (err) {
      // The document went (a script or refresh navigated) between making our world and using it.
      if (!DOCUMENT_GONE.test(String((err as Error)?.message))) throw err;
      if (attempt === NAVIGATING_TRIES) {
        throw new PageFailure('TIMEOUT', 'the page kept navigating away: its document could not be read');
      }
    }
  }
}

const DOCUMENT_GONE =
  /Cannot find context with specified id|Execution context was destroyed|No frame for given id|Inspected target navigated/;
const NAVIGATING_TRIES = 3;
const POLL_MS = 50;

async function evaluateOnce(cdp: CdpClient, frameId: string, expression: string): Promise<unknown> {
  const { executionContextId } = (await cdp.send('Page.createIsolatedWorld', {
    frameId,
    worldName: SNAPSHOT_WORLD,
  })) as { executionContextId: number };
  const { result, exceptionDetails } = (await cdp.send('Runtime.evaluate', {
    expression,
    contextId: executionContextId,
    // A promise is settled first (page actions wait in our world); any other value is as it is.
    awaitPromise: true,
    returnByValue: true,
  })) as {
    result: { value?: unknown };
    exceptionDetails?: { text: string; exception?: { description?: string } };
  };
  if (exceptionDetails) {
    const description = exceptionDetails.exception?.description ?? exceptionDetails.text;
    if (/Invalid string length/.test(description)) return INVALID_LENGTH;
    throw new Error(`the document could not be read: ${description.split('\n')[0]}`);
  }
  return result.value;
}

/** Requests that stay open by design and would keep a page from ever looking quiet. */
const LONG_LIVED = new Set(['EventSource', 'WebSocket']);

interface RequestWillBeSent {
  requestId: string;
  frameId?: string;
  type?: string;
  request: { url: string };
}
interface ResponseReceived {
  requestId: string;
  response: { url: string; status: number; headers: Record<string, string> };
}
interface DataReceived {
  requestId: string;
  dataLength: number;
}
interface LoadingDone {
  requestId: string;
  errorText?: string;
}

/** The main frame's latest document response, whatever navigated there (redirect, script, refresh). */
export interface DocumentResponse {
  url: string;
  status: number;
  /** Names in lower case. */
  headers: Record<string, string>;
}

/**
 * Watches one tab over its own CDP session, page after page: blocks resource types, installs the
 * readiness script and counts requests in flight (the readiness rule, waitForReady), counts the
 * main document's bytes (stopping it past the HTML cap), reads the document and stops runaway
 * scripts. Shared by the Playwright and Puppeteer engines. start() once per tab, then beginPage()
 * before each page.
 */
export class PageMonitor {
  private readonly inflight = new Set<string>();
  private lastActivity = Date.now();
  private mainFrameId: string | undefined;
  private readonly documentRequests = new Set<string>();
  private documentBytes = 0;
  /** Whether block_resources' patterns are set on the tab. */
  private blocking = false;
  private onTooLarge: (() => void) | undefined;
  /** The main document went past the cap; loading was stopped. */
  tooLarge = false;
  /** The current document has fired its load event. */
  loaded = false;
  /** The URL of the last main-frame document request (a redirect's target included). */
  documentUrl: string | undefined;
  document: DocumentResponse | undefined;
  /** The last main-frame document's response was a PDF, or a binary that may be one. */
  private pdfSeen = false;
  /** Chromium's net error when the last main-frame document request failed. */
  documentError: string | undefined;
  /** The page asked for a second main-frame document (a script or refresh navigated it). */
  get navigatedItself(): boolean {
    return this.documentRequests.size > 1;
  }
  /** Settles when the document goes past the cap; race navigation against it. */
  tooLargeSignal = this.nextTooLargeSignal();
  private readonly originHeaders: OriginHeaderInjector;
  private readonly pdfReader: DocumentPdfReader;

  constructor(
    /** The tab's own session: page actions send their input events over it. */
    readonly cdp: CdpClient,
    private readonly maxDocumentBytes: number,
    /** PDF_MAX_BYTES: a PDF document is read this far instead (DocumentPdfReader). */
    maxPdfBytes = maxDocumentBytes,
  ) {
    this.originHeaders = new OriginHeaderInjector(cdp);
    this.pdfReader = new DocumentPdfReader(
      cdp,
      maxPdfBytes,
      (frameId) => frameId === this.mainFrameId,
      (document) => (this.document = document),
    );
  }

  /**
   * After a navigation failed: true when its document was a PDF (or a binary that may be one) and
   * the page should be loaded again, this time with documents' responses paused for
   * DocumentPdfReader. Pausing every page's document costs every page (the interceptor sees each
   * request of the tab), so a PDF is asked for twice instead; the first try ends at its headers
   * (downloads are refused).
   */
  async readPdfAgain(): Promise<boolean> {
    if (!this.pdfSeen || this.pdfReader.pdf) return false;
    this.forgetDocument();
    await this.originHeaders.readDocuments();
    return true;
  }

  /** The main document as a PDF, read before its navigation was ended; undefined for any other. */
  get pdf(): DocumentPdf | undefined {
    return this.pdfReader.pdf;
  }

  async start(): Promise<void> {
    this.originHeaders.listen((e) => this.pdfReader.paused(e));
    this.cdp.on('Network.requestWillBeSent', (e: RequestWillBeSent) => {
      this.lastActivity = Date.now();
      if (e.request.url.startsWith('data:') || LONG_LIVED.has(e.type ?? '')) return;
      this.inflight.add(e.requestId);
      if (e.type === 'Document' && e.frameId === this.mainFrameId) {
        this.documentRequests.add(e.requestId);
        this.documentUrl = e.request.url;
        this.documentError = undefined;
        this.documentBytes = 0;
        this.loaded = false;
      }
    });
    this.cdp.on('Network.responseReceived', (e: ResponseReceived) => {
      if (!this.documentRequests.has(e.requestId)) return;
      const headers = Object.fromEntries(
        Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]),
      );
      this.document = { url: e.response.url, status: e.response.status, headers };
      // A PDF is DocumentPdfReader's to bound (and, the first time, to read: readPdfAgain).
      if (mayBePdf(headers['content-type'])) this.pdfSeen = true;
      else if (Number(headers['content-length']) > this.maxDocumentBytes) this.stop();
    });
    this.cdp.on('Network.dataReceived', (e: DataReceived) => {
      this.lastActivity = Date.now();
      if (!this.documentRequests.has(e.requestId)) return;
      this.documentBytes += e.dataLength;
      if (this.documentBytes > this.maxDocumentBytes) this.stop();
    });
    const done = (e: LoadingDone) => {
      this.lastActivity = Date.now();
      this.inflight.delete(e.requestId);
      if (e.errorText && this.documentRequests.has(e.requestId)) this.documentError = e.errorText;
    };
    this.cdp.on('Network.loadingFinished', done);
    this.cdp.on('Network.loadingFailed', done);
    this.cdp.on('Page.loadEventFired', () => (this.loaded = true));
    const { frameTree } = (await this.cdp.send('Page.getFrameTree')) as {
      frameTree: { frame: { id: string } };
    };
    this.mainFrameId = frameTree.frame.id;
    await Promise.all([
      this.cdp.send('Page.enable'),
      // The engine's own session keeps response bodies; this one needs none.
      this.cdp.send('Network.enable', { maxTotalBufferSize: 1, maxResourceBufferSize: 1 }),
      this.cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: readinessInitScript() }),
    ]);
  }

  /**
   * Forgets the last page (a reused tab's), blocks images, media and fonts or lets them load as
   * this page asks, and sends the caller's headers to the target's origin only. Requests the last
   * page left in flight end with the navigation.
   */
  async beginPage(blockResources: boolean, headers?: HeadersForOrigin): Promise<void> {
    this.forgetDocument();
    await this.originHeaders.beginPage(headers);
    if (blockResources === this.blocking) return;
    await this.cdp.send('Network.setBlockedURLs', { urls: blockResources ? BLOCKED_URL_PATTERNS : [] });
    this.blocking = blockResources;
  }

  private forgetDocument(): void {
    this.inflight.clear();
    this.documentRequests.clear();
    this.lastActivity = Date.now();
    this.documentBytes = 0;
    this.tooLarge = false;
    this.loaded = false;
    this.documentUrl = undefined;
    this.document = undefined;
    this.documentError = undefined;
    this.tooLargeSignal = this.nextTooLargeSignal();
    this.pdfSeen = false;
    this.pdfReader.reset();
  }

  private nextTooLargeSignal(): Promise<void> {
    return new Promise<void>((resolve) => (this.onTooLarge = resolve));
  }

  /**
   * The readiness rule (readiness.ts): resolves true once the page is quiet for `quietMs` by its own
   * count (loaded, no fetch, XHR or short timer pending, no DOM change) and by the network's (no
   * request in flight, none ended within `quietMs`: a script chunk is not a fetch), false at `until`
   * (epoch ms) or when the page does not answer. One evaluation a page when the two agree; a page
   * that navigates meanwhile is asked again. `domOnly`: only the DOM's quiet counts (after wait_for).
   */
  async waitForReady(quietMs: number, until: number, domOnly = false): Promise<boolean> {
    for (;;) {
      const left = until - Date.now();
      if (left <= 0) return false;
      let quiet: unknown;
      try {
        const evaluation = this.cdp.send('Runtime.evaluate', {
          expression: readinessExpression(quietMs, left, domOnly),
          awaitPromise: true,
          returnByValue: true,
        }) as Promise<{ result: { value?: unknown } }>;
        // A main thread kept busy never answers: the cap still holds.
        quiet = (await withDeadline(evaluation, left + POLL_MS, 'the readiness wait')).result.value;
      } catch (err) {
        if (err instanceof DeadlineError || !DOCUMENT_GONE.test(String((err as Error)?.message)))
          return false;
        continue;
      }
      if (quiet === false) return false;
      if (domOnly) return true;
      // Not installed in this document (it is not the page's own): the network alone decides.
      if (quiet === null) return this.networkQuiet(quietMs, until);
      if (this.inflight.size === 0 && Date.now() - this.lastActivity >= quietMs) return true;
      if (!(await this.networkQuiet(quietMs, until))) return false;
    }
  }

  /**
   * Resolves true once the document has loaded and no request has been in flight for `idleMs`,
   * false at `until` (epoch ms). Polls: the events arrive anyway, and a timer is cheaper than
   * re-arming on each of them. Once quiet, it sleeps to the exact end of the quiet period.
   */
  private async networkQuiet(idleMs: number, until: number): Promise<boolean> {
    for (;;) {
      const now = Date.now();
      const quiet = this.loaded && this.inflight.size === 0;
      if (quiet && now - this.lastActivity >= idleMs) return true;
      if (now >= until) return false;
      const step = quiet ? this.lastActivity + idleMs - now : POLL_MS;
      await sleep(Math.min(step, until - now));
    }
  }

  /** Resolves true once the document has fired its load event, false at `until` (epoch ms). */
  async waitForLoad(until: number): Promise<boolean> {
    while (!this.loaded) {
      if (Date.now() >= until) return false;
      await sleep(Math.min(POLL_MS, until - Date.now()));
    }
    return true;
  }

  /**
   * The document is past the HTML cap: stop loading it. Bytes are counted only as fast as the
   * renderer parses (Chromium's data pipe applies back-pressure), so a document sent without a
   * content-length is caught after parsing about 10 MB, which takes seconds.
   */
  private stop(): void {
    if (this.tooLarge) return;
    this.tooLarge = true;
    this.onTooLarge?.();
    this.cdp.send('Page.stopLoading').catch(() => undefined);
  }

  /** The document's HTML (readDocumentHtml); TOO_LARGE past the HTML cap. */
  html(): Promise<string> {
    return readDocumentHtml(this.cdp, this.mainFrameId!, this.maxDocumentBytes);
  }

  /** The viewport's width and the document's height in CSS pixels, as our own world sees them. */
  async pageSize(): Promise<{ width: number; height: number }> {
    const [width, height] = (await evaluateIsolated(
      this.cdp,
      this.mainFrameId!,
      '[innerWidth, document.documentElement ? document.documentElement.scrollHeight : 0]',
    )) as number[];
    const size = (n: number) => (Number.isFinite(n) && n >= 1 ? Math.ceil(n) : 1);
    return { width: size(width), height: size(height) };
  }

  /** Evaluates `expression` in our own world of the main frame (evaluateIsolated), a promise settled. */
  evaluate(expression: string): Promise<unknown> {
    return evaluateIsolated(this.cdp, this.mainFrameId!, expression);
  }

  /** Resolves once the page's main thread has run a trivial script. */
  async probe(): Promise<void> {
    await this.cdp.send('Runtime.evaluate', { expression: '0' });
  }

  /** Stops the script running in the page's main thread, e.g. an endless loop. */
  async terminateScripts(): Promise<void> {
    await this.cdp.send('Runtime.terminateExecution').catch(() => undefined);
  }
}
