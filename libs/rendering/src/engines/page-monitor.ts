import { sleep } from '../deadline';

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
/** The doctype and the markup, as page.content() of either engine reads them. */
const SERIALIZE_DOCUMENT = `(document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '') +
  (document.documentElement ? document.documentElement.outerHTML : '')`;

/**
 * The HTML of the frame's document, serialized in a world of our own, so that the page's scripts
 * cannot change what is read. Not the engines' page.content(): both inject their helper scripts
 * into every new document for it, which cost about 100 ms of renderer CPU a page here
 * (docs/decisions.md, "Rendering").
 */
export async function readDocumentHtml(cdp: CdpClient, frameId: string): Promise<string> {
  const { executionContextId } = (await cdp.send('Page.createIsolatedWorld', {
    frameId,
    worldName: SNAPSHOT_WORLD,
  })) as { executionContextId: number };
  const { result, exceptionDetails } = (await cdp.send('Runtime.evaluate', {
    expression: SERIALIZE_DOCUMENT,
    contextId: executionContextId,
    returnByValue: true,
  })) as { result: { value?: unknown }; exceptionDetails?: { text: string } };
  if (exceptionDetails || typeof result.value !== 'string') {
    throw new Error(`the document could not be read: ${exceptionDetails?.text ?? 'no markup'}`);
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
 * Watches one tab over its own CDP session, page after page: blocks resource types, counts requests
 * in flight (for "network quiet"), counts the main document's bytes (stopping it past the HTML
 * cap), reads the document and stops runaway scripts. Shared by the Playwright and Puppeteer
 * engines. start() once per tab, then beginPage() before each page.
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
  /** Chromium's net error when the last main-frame document request failed. */
  documentError: string | undefined;
  /** Settles when the document goes past the cap; race navigation against it. */
  tooLargeSignal = this.nextTooLargeSignal();

  constructor(
    private readonly cdp: CdpClient,
    private readonly maxDocumentBytes: number,
  ) {}

  async start(): Promise<void> {
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
      if (Number(headers['content-length']) > this.maxDocumentBytes) this.stop();
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
    await this.cdp.send('Page.enable');
    // The engine's own session keeps response bodies; this one needs none.
    await this.cdp.send('Network.enable', { maxTotalBufferSize: 1, maxResourceBufferSize: 1 });
  }

  /**
   * Forgets the last page (a reused tab's), and blocks images, media and fonts or lets them load
   * as this page asks. Requests the last page left in flight end with the navigation.
   */
  async beginPage(blockResources: boolean): Promise<void> {
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
    if (blockResources === this.blocking) return;
    await this.cdp.send('Network.setBlockedURLs', { urls: blockResources ? BLOCKED_URL_PATTERNS : [] });
    this.blocking = blockResources;
  }

  private nextTooLargeSignal(): Promise<void> {
    return new Promise<void>((resolve) => (this.onTooLarge = resolve));
  }

  /**
   * Resolves true once the document has loaded and no request has been in flight for `idleMs`,
   * false at `until` (epoch ms). Polls: the events arrive anyway, and a timer is cheaper than
   * re-arming on each of them. Once quiet, it sleeps to the exact end of the quiet period rather
   * than to the next 50 ms tick (25 ms of latency a page on average).
   */
  async waitForSettled(idleMs: number, until: number): Promise<boolean> {
    for (;;) {
      const now = Date.now();
      const quiet = this.loaded && this.inflight.size === 0;
      if (quiet && now - this.lastActivity >= idleMs) return true;
      if (now >= until) return false;
      const step = quiet ? this.lastActivity + idleMs - now : 50;
      await sleep(Math.min(step, until - now));
    }
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

  /** The document's HTML (readDocumentHtml). */
  html(): Promise<string> {
    return readDocumentHtml(this.cdp, this.mainFrameId!);
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
