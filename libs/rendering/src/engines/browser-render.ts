import type { EgressProxy, UpstreamProxy } from '@app/net-guard';
import { MAX_HTML_BYTES, type ActionLimits, type BrowserEngine } from '@app/queue-contracts';
import { contentKind, unsupportedReason } from '../content/content-kind';
import { DeadlineError, remaining, sleep, withDeadline } from '../deadline';
import type { PoolLimits } from '../pool-config';
import {
  BrowserGoneError,
  EgressUnavailableError,
  PageFailure,
  StaleTabError,
  chromiumNetError,
  codeOfNetError,
  firstLine,
  type PageError,
} from '../page-errors';
import type { RefusalLog } from '../refusal-log';
import type { BrowserMemoryGuard } from './browser-memory';
import { pdfCapture } from './document-pdf';
import type { Capture, EngineRequest } from './engine';
import type { PageMonitor } from './page-monitor';
import { fullPageScreenshot, runActions, waitForSelector } from './page-actions';

/** The main response as the engine's own API reports it. */
export interface MainResponse {
  status: number;
  url: string;
  text(): Promise<string>;
}

/** The few things the render flow needs from a Playwright or Puppeteer page. */
export interface BrowserTab {
  /** Navigates and resolves at DOMContentLoaded. */
  goto(url: string, timeoutMs: number): Promise<MainResponse | null>;
  /** A PNG of the page's top `clip` CSS pixels, beyond the viewport's height. */
  screenshot(clip: { width: number; height: number }): Promise<Buffer>;
  url(): string;
  /** The page's renderer process crashed. */
  readonly crashed: boolean;
  /** The browser (or its connection) is gone: the pool retries the page on a fresh one. */
  gone(): boolean;
  isTimeout(err: unknown): boolean;
}

export interface TabSettings {
  engine: BrowserEngine;
  /** PDF_MAX_BYTES, for the TOO_LARGE message. */
  pdfMaxBytes: number;
  refusals: RefusalLog;
  /** The readiness rule's quiet window (RENDER_IDLE_MS). */
  idleMs: number;
  /** Longest wait for the page to be ready after DOMContentLoaded (RENDER_SETTLE_MAX_MS). */
  settleMaxMs: number;
  actionLimits: ActionLimits;
  /**
   * The page stopped answering or outlived its deadline: its tab is to be closed at once (its
   * browser killed if the tab does not go), and its context should serve no more pages.
   */
  onHung(): void;
}

/** What both browser engines are configured with. */
export interface BrowserEngineSettings {
  executablePath: string | undefined;
  /** The egress proxy every request of the browser goes through. */
  proxyUrl: string | undefined;
  /**
   * An egress proxy of its own for a page with an upstream proxy (its context is pointed at it):
   * the same policy and refusal log, the upstream hop ours. Closed after the page.
   */
  egressVia(upstream: UpstreamProxy): Promise<EgressProxy>;
  /** Chromium's sandbox is on (decideSandbox). */
  sandbox: boolean;
  limits: PoolLimits;
  idleMs: number;
  settleMaxMs: number;
  actionLimits: ActionLimits;
  refusals: RefusalLog;
  /** PDF_MAX_BYTES: how far a PDF document is read (DocumentPdfReader). */
  pdfMaxBytes: number;
  /** BROWSER_MAX_MEMORY_MB over both engines' browsers. */
  memory: BrowserMemoryGuard;
}

export const LAUNCH_MS = 30_000;
/**
 * Both libraries close their browsers on SIGTERM, SIGINT and SIGHUP by default, under the pages in
 * flight; the worker's drain closes them once its jobs are done (and at exit in any case).
 */
export const KEEP_BROWSER_ON_SIGNALS = { handleSIGTERM: false, handleSIGINT: false, handleSIGHUP: false };
/** Opening a CDP session and setting the page up. */
export const SETUP_MS = 10_000;

/** The page lost its browser twice: the first loss was retried on a fresh browser. */
export const crashCapture = (engine: BrowserEngine, err: unknown): Capture => ({
  engine,
  finalUrl: null,
  status: null,
  error: {
    code: 'RENDER_CRASH',
    message: `the browser went away twice while rendering: ${firstLine(err)}`,
  },
});

/** How long a page that does not answer a trivial script is given before its scripts are stopped. */
const PROBE_MS = 1000;
/** Grace after the deadline for reading the DOM and for the screenshot. */
const SNAPSHOT_MS = 10_000;
const SCREENSHOT_MS = 15_000;
/**
 * How long after the deadline a page still gets to give back what it holds. Past it the page is
 * given up as TIMEOUT whatever the browser is doing (a renderer busy in layout answers no CDP call,
 * not even Runtime.terminateExecution), and its tab is closed.
 */
export const READ_GRACE_MS = 3000;

const tooLarge = (): PageError => ({
  code: 'TOO_LARGE',
  message: `the document exceeds ${MAX_HTML_BYTES} bytes`,
});

const crashError: PageError = { code: 'RENDER_CRASH', message: 'the page crashed the renderer' };

/** Whether the page's main thread runs a trivial script within PROBE_MS. */
const answers = (monitor: PageMonitor) =>
  withDeadline(monitor.probe(), PROBE_MS, 'probe').then(
    () => true,
    (err) => !(err instanceof DeadlineError),
  );

/**
 * The page's HTML. The first read doubles as the probe (one call a page less): a page whose main
 * thread has not given it back within PROBE_MS (an endless script, or a document that takes that
 * long to serialize) has its scripts terminated and is read again; if it still does not answer
 * (the script starts again), it is given up as TIMEOUT, and its context is retired.
 */
async function snapshot(monitor: PageMonitor, settings: TabSettings, ms: number): Promise<string> {
  const hung = () => {
    settings.onHung();
    return new PageFailure('TIMEOUT', "the page's scripts never gave the page back");
  };
  const first = monitor.html();
  // Given up on below after PROBE_MS; its late end, or the termination cutting it, is not an error.
  first.catch(() => undefined);
  try {
    return await withDeadline(first, PROBE_MS, 'reading the page');
  } catch (err) {
    if (!(err instanceof DeadlineError)) throw err;
  }
  // Raced too: a renderer busy outside JavaScript (layout of an SVG bomb) never answers it.
  await withDeadline(monitor.terminateScripts(), PROBE_MS, 'stopping scripts').catch(() => undefined);
  // The probe also takes a termination that found no script running, so it cuts no later read.
  if (!(await answers(monitor))) throw hung();
  try {
    return await withDeadline(monitor.html(), ms, 'reading the page');
  } catch (err) {
    if (err instanceof DeadlineError) throw hung();
    throw err;
  }
}

/** The failure of a navigation Chromium gave up on, as a page error (or a throw for our own faults). */
function netFailure(netError: string, monitor: PageMonitor, settings: TabSettings, url: string): PageError {
  if (netError === 'ERR_PROXY_CONNECTION_FAILED') {
    throw new EgressUnavailableError('the browser cannot reach the egress proxy');
  }
  if (netError === 'ERR_TUNNEL_CONNECTION_FAILED') {
    const refusal = settings.refusals.find(monitor.documentUrl ?? url);
    if (refusal) return { code: refusal.code, message: refusal.reason };
  }
  return { code: codeOfNetError(netError), message: `the browser could not load the page (${netError})` };
}

async function navigationFailure(
  err: unknown,
  tab: BrowserTab,
  monitor: PageMonitor,
  request: EngineRequest,
  settings: TabSettings,
): Promise<Capture> {
  const doc = monitor.document;
  const failed = { engine: settings.engine, finalUrl: doc?.url ?? null, status: null };
  if (err instanceof StaleTabError) throw err;
  if (tab.gone()) throw new BrowserGoneError(err);
  if (tab.crashed) return { ...failed, error: crashError };
  if (monitor.pdf) return pdfCapture(settings.engine, settings.pdfMaxBytes, monitor.pdf);
  // Chromium turns a document it will not show (an attachment, a binary) into an aborted download.
  if (doc && contentKind(doc.headers['content-type'], doc.headers['content-disposition']) === 'unsupported') {
    const reason = unsupportedReason(doc.headers['content-type'], doc.headers['content-disposition']);
    return { ...failed, status: doc.status, error: { code: 'UNSUPPORTED_CONTENT', message: reason } };
  }
  if (tab.isTimeout(err)) {
    // What did arrive is still worth returning (a page that never finishes loading).
    const body = await snapshot(monitor, settings, PROBE_MS).catch(() => undefined);
    return {
      ...failed,
      status: doc?.status ?? null,
      ...(body ? { body, kind: 'html' as const } : {}),
      error: { code: 'TIMEOUT', message: `the page did not load within ${request.options.timeout} ms` },
    };
  }
  const netError =
    chromiumNetError(String((err as Error)?.message)) ?? monitor.documentError?.replace(/^net::/, '');
  if (netError) return { ...failed, error: netFailure(netError, monitor, settings, request.url) };
  throw err;
}

/**
 * Waits until the page is ready to be read (docs/decisions.md, "Rendering"). By default the
 * readiness rule (PageMonitor.waitForReady) with RENDER_IDLE_MS as the quiet window, at most
 * RENDER_SETTLE_MAX_MS after DOMContentLoaded. `wait_for` replaces it: a selector (found as the
 * actions find theirs, page-actions.ts), then the DOM
 * quiet for that window (no network wait), a selector never present being the page's TIMEOUT; or
 * milliseconds after the load event. Every wait ends at the page's deadline.
 */
async function waitUntilReady(
  tab: BrowserTab,
  monitor: PageMonitor,
  { options, deadline }: EngineRequest,
  settings: TabSettings,
): Promise<PageError | undefined> {
  const cap = () => Math.min(deadline, Date.now() + settings.settleMaxMs);
  const waitFor = options.wait_for;
  if (typeof waitFor === 'number') {
    await monitor.waitForLoad(deadline);
    await sleep(Math.min(waitFor, remaining(deadline)));
    return undefined;
  }
  if (typeof waitFor === 'string') {
    let found: Awaited<ReturnType<typeof waitForSelector>> | undefined;
    try {
      found = await waitForSelector(monitor, waitFor, deadline);
    } catch (err) {
      if (tab.gone()) throw new BrowserGoneError(err);
      // A page that kept navigating away: the readiness rule decides.
    }
    if (found === 'found') {
      await monitor.waitForReady(settings.idleMs, cap(), true);
      return undefined;
    }
    if (found === 'timeout') {
      const message = `the selector ${JSON.stringify(waitFor)} (wait_for) did not appear within ${options.timeout} ms`;
      return { code: 'TIMEOUT', message };
    }
    // An invalid selector is not waited for: the readiness rule decides.
  }
  await monitor.waitForReady(settings.idleMs, cap());
  return undefined;
}

/**
 * Loads a page in a browser tab and captures it (the render flow both browser engines share):
 * navigate to DOMContentLoaded; check what came back (refused by the egress proxy, not HTML); wait
 * until ready (waitUntilReady); read the DOM; take
 * the screenshot. Every step has a deadline, and the whole gives up READ_GRACE_MS after the page's
 * deadline, with what it had read by then. A renderer crash is the page's RENDER_CRASH.
 */
export async function renderInTab(
  tab: BrowserTab,
  monitor: PageMonitor,
  request: EngineRequest,
  settings: TabSettings,
): Promise<Capture> {
  const giveUpAt = request.deadline + READ_GRACE_MS;
  const read: Partial<Capture> = {};
  const flow = renderFlow(tab, monitor, request, settings, read, giveUpAt);
  let timer: NodeJS.Timeout | undefined;
  const givenUp = new Promise<Capture>((resolve) => {
    timer = setTimeout(() => {
      settings.onHung();
      const message = `the page did not finish within its timeout of ${request.options.timeout} ms`;
      resolve({
        engine: settings.engine,
        finalUrl: monitor.document?.url ?? null,
        status: monitor.document?.status ?? null,
        ...read,
        error: { code: 'TIMEOUT', message },
      });
    }, remaining(giveUpAt));
  });
  try {
    return await Promise.race([flow, givenUp]);
  } catch (err) {
    if (tab.gone()) throw new BrowserGoneError(err);
    if (tab.crashed) {
      return { engine: settings.engine, finalUrl: null, status: null, error: crashError };
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

async function renderFlow(
  tab: BrowserTab,
  monitor: PageMonitor,
  request: EngineRequest,
  settings: TabSettings,
  read: Partial<Capture>,
  giveUpAt: number,
): Promise<Capture> {
  const { url, options, deadline } = request;
  const engine = settings.engine;
  const navigate = () =>
    Promise.race([tab.goto(url, remaining(deadline)), monitor.tooLargeSignal.then(() => null)]);
  let response: MainResponse | null;
  try {
    response = await navigate().catch(async (err: unknown) => {
      if (tab.gone() || !(await monitor.readPdfAgain())) throw err;
      return navigate();
    });
  } catch (err) {
    return navigationFailure(err, tab, monitor, request, settings);
  }
  const fail = (error: PageError, status: number | null = null): Capture => ({
    engine,
    finalUrl: monitor.document?.url ?? response?.url ?? null,
    status,
    error,
  });
  if (monitor.tooLarge) return fail(tooLarge(), monitor.document?.status ?? null);

  const checkDocument = (): Capture | undefined => {
    const doc = monitor.document;
    if (tab.url().startsWith('chrome-error:') && monitor.documentError) {
      return fail(netFailure(monitor.documentError.replace(/^net::/, ''), monitor, settings, url));
    }
    const refused = doc && settings.refusals.confirms(doc.url, doc.headers['x-egress-blocked']);
    if (refused) return fail({ code: refused, message: settings.refusals.find(doc.url)!.reason });
    return undefined;
  };
  const refused = checkDocument();
  if (refused) return refused;

  const doc = monitor.document;
  if (monitor.pdf) return pdfCapture(settings.engine, settings.pdfMaxBytes, monitor.pdf);
  const kind = doc ? contentKind(doc.headers['content-type'], doc.headers['content-disposition']) : 'html';
  if (kind === 'unsupported' || kind === 'pdf') {
    const reason = unsupportedReason(doc?.headers['content-type'], doc?.headers['content-disposition']);
    return fail({ code: 'UNSUPPORTED_CONTENT', message: reason }, doc?.status ?? null);
  }
  if (kind !== 'html') {
    const body = response
      ? await withDeadline(response.text(), remaining(deadline) + SNAPSHOT_MS, 'reading the body')
      : '';
    return { engine, finalUrl: doc?.url ?? url, status: doc?.status ?? null, body, kind };
  }

  const error = await waitUntilReady(tab, monitor, request, settings);
  if (!error && options.actions?.length) {
    const done = await runActions(tab, monitor, request, settings);
    read.actions = done.results;
    if (done.error) return { ...fail(done.error, monitor.document?.status ?? null), actions: done.results };
  }
  if (tab.crashed) return fail(crashError);
  if (monitor.tooLarge) return fail(tooLarge(), monitor.document?.status ?? null);
  // A script or refresh may have navigated since; judge where the page ended up.
  const moved = checkDocument();
  if (moved) return moved;

  let body: string;
  try {
    body = await snapshot(monitor, settings, Math.min(SNAPSHOT_MS, remaining(giveUpAt)));
  } catch (err) {
    if (tab.gone()) throw new BrowserGoneError(err);
    if (err instanceof PageFailure) return fail(err.toError(), monitor.document?.status ?? null);
    throw err;
  }
  const capture: Capture = {
    engine,
    finalUrl: tab.url(),
    status: monitor.document?.status ?? response?.status ?? null,
    body,
    kind: 'html',
    error,
    actions: read.actions,
  };
  if (Buffer.byteLength(body) > MAX_HTML_BYTES) return { ...capture, body: undefined, error: tooLarge() };
  Object.assign(read, { finalUrl: capture.finalUrl, status: capture.status, body, kind: 'html' });
  if (options.formats.includes('screenshot')) {
    try {
      capture.screenshot = await withDeadline(
        fullPageScreenshot(tab, monitor, options.mobile),
        Math.min(SCREENSHOT_MS, remaining(giveUpAt)),
        'the screenshot',
      );
    } catch (err) {
      if (tab.gone()) throw new BrowserGoneError(err);
      capture.error ??= { code: 'TIMEOUT', message: `the screenshot failed: ${firstLine(err)}` };
    }
  }
  return capture;
}
