import { InvalidRequestError } from '@app/common';
import { parseTargetUrl, type UpstreamProxy } from '@app/net-guard';
import {
  MAX_SCREENSHOT_BYTES,
  MAX_TIMEOUT_MS,
  MAX_HTML_BYTES,
  NO_METADATA,
  RENDERED_NOW,
  SCRAPE_DEFAULTS,
  type EngineName,
  type PageResult,
  type ScrapeOptions,
} from '@app/queue-contracts';
import type { BrowserSlots } from './autoscale/browser-slots';
import type { PageContent } from './content/page-content';
import type { ContentPool } from './content-pool/content-pool';
import type { ContentAnswer } from './content-pool/content-thread';
import type { Capture, EngineRequest, RenderEngine } from './engines/engine';
import { PageFailure, statusError, type PageError } from './page-errors';
import type { SessionJar } from './engines/session-state';

export interface RenderRequest {
  url: string;
  /** The page's position in its job (0 for a single scrape). */
  index?: number;
  options: ScrapeOptions;
  /** Pages with different keys never share browser state: pass the account id. */
  isolationKey: string;
  /** A sync scrape's page: it takes the next browser slot ahead of batch pages waiting for one. */
  first?: boolean;
  /** `options.session_id`'s state: the engine restores it and replaces it with what the page left. */
  session?: SessionJar;
  /** The upstream proxy the page goes through, if any (credentials in clear: never logged). */
  proxy?: UpstreamProxy;
}

export interface RenderEngines {
  http: RenderEngine;
  playwright: RenderEngine;
  puppeteer: RenderEngine;
}

/** What became of one render, for counting: the engine that did it, and its outcome and time. */
export interface RenderedPage {
  engine: EngineName;
  /** `success`, the page's error code, or `engine_failure` when the machinery threw (retried). */
  outcome: string;
  seconds: number;
}

export type RenderListener = (page: RenderedPage) => void;

/** Shortest page budget, so a tiny `timeout` still leaves a browser time to start a page. */
const MIN_TIMEOUT_MS = 1000;

/** A page's formats, or why it has none. */
type Converted = { content: PageContent; error?: undefined } | { content?: undefined; error: PageError };

/**
 * Page in, page result out (docs/api.md, Page result; docs/decisions.md, Rendering). Page-level
 * failures come back as the result's `error`; it throws only when the machinery failed (no browser could be
 * launched, the egress proxy is gone), which the caller should retry.
 */
export class RenderService {
  private readonly listeners: RenderListener[] = [];

  constructor(
    private readonly engines: RenderEngines,
    /** Every parse and conversion runs there, never on this event loop. */
    private readonly content: ContentPool,
    /** Browser pages in flight, both engines together (the http engine is not held by it). */
    private readonly slots: BrowserSlots,
  ) {}

  /** Hears every render; the worker turns these into metrics without this lib knowing Prometheus. */
  onRendered(listener: RenderListener): void {
    this.listeners.push(listener);
  }

  async render(request: RenderRequest): Promise<PageResult> {
    const started = Date.now();
    try {
      const result = await this.renderPage(request, started);
      this.tell({
        engine: result.metadata.engine,
        outcome: result.error?.code ?? 'success',
        seconds: result.timings.total_ms / 1000,
      });
      return result;
    } catch (err) {
      const engine = request.options.engine ?? SCRAPE_DEFAULTS.engine;
      this.tell({ engine, outcome: 'engine_failure', seconds: (Date.now() - started) / 1000 });
      throw err;
    }
  }

  private tell(page: RenderedPage): void {
    for (const listener of this.listeners) listener(page);
  }

  private async renderPage(request: RenderRequest, started: number): Promise<PageResult> {
    const options: ScrapeOptions = { ...SCRAPE_DEFAULTS, ...request.options };
    const timeout = Math.min(MAX_TIMEOUT_MS, Math.max(MIN_TIMEOUT_MS, options.timeout));
    let url: string;
    try {
      url = parseTargetUrl(request.url, { kind: 'target' }).href;
    } catch (err) {
      if (!(err instanceof InvalidRequestError)) throw err;
      // The API vets URLs first; one that still fails here is refused, not fetched.
      const refused: Capture = {
        engine: 'http',
        finalUrl: null,
        status: null,
        error: { code: 'BLOCKED_ADDRESS', message: err.message },
      };
      return this.result(request, refused, options, started, started);
    }
    const { capture, converted, rendered } = await this.capture(
      request.url,
      {
        url,
        options: { ...options, timeout },
        isolationKey: request.isolationKey,
        deadline: started + timeout,
        session: request.session,
        proxy: request.proxy,
      },
      request.first ?? false,
    );
    return this.result(request, capture, options, started, rendered, converted);
  }

  /**
   * render: http and browser use their engine; auto starts with http and moves on if needed. The
   * http page's decision is made in a content thread, which converts it in the same task when it
   * stays (a parsed document cannot leave its thread).
   */
  private async capture(
    pageUrl: string,
    request: EngineRequest,
    first: boolean,
  ): Promise<{ capture: Capture; converted?: Converted; rendered: number }> {
    const { options } = request;
    const browser = this.engines[options.engine];
    // Only a browser can wait for something, act on the page or take a picture; a session's
    // storage and scripts' cookies need one too.
    const browserOnly =
      options.formats.includes('screenshot') ||
      options.wait_for !== undefined ||
      !!options.actions?.length ||
      options.session_id !== undefined;
    if (options.render === 'browser' || (options.render === 'auto' && browserOnly)) {
      return { capture: await this.inBrowser(browser, request, first), rendered: Date.now() };
    }
    const capture = await this.engines.http.capture(request);
    const rendered = Date.now();
    if (options.render === 'http' || capture.error || capture.kind !== 'html' || capture.body === undefined) {
      return { capture, rendered };
    }
    if ((capture.status ?? 0) >= 400 || tooLarge(capture.body)) return { capture, rendered };
    const decided = await this.convert(capture, pageUrl, options, true);
    if (decided !== 'javascript') return { capture, converted: decided, rendered };
    return { capture: await this.inBrowser(browser, request, first), rendered: Date.now() };
  }

  /** A browser capture once the level lets it in; its time waiting for a slot is not its page's. */
  private inBrowser(browser: RenderEngine, request: EngineRequest, first: boolean): Promise<Capture> {
    return this.slots.run(
      (waitedMs) => browser.capture({ ...request, deadline: request.deadline + waitedMs }),
      first,
    );
  }

  /** The page's formats from its content thread; `javascript` when `decide` finds it needs a browser. */
  private async convert(
    capture: Capture,
    pageUrl: string,
    options: ScrapeOptions,
    decide: boolean,
  ): Promise<Converted | 'javascript'> {
    const { body, kind, pdf } = capture;
    const url = capture.finalUrl ?? pageUrl;
    let answer: ContentAnswer;
    try {
      if (kind === 'pdf' && pdf) answer = await this.content.pdf({ bytes: pdf, url, options });
      else if (body !== undefined && kind && kind !== 'pdf')
        answer = await this.content.run({ input: { body, kind, url, options }, decide });
      else throw new Error('convert: a capture without a document');
    } catch (err) {
      if (err instanceof PageFailure) return { error: err.toError() };
      throw err;
    }
    if ('javascript' in answer) return 'javascript';
    if ('refused' in answer) return { error: answer.refused };
    if ('failed' in answer) {
      return {
        error: { code: 'RENDER_CRASH', message: `the page could not be converted: ${answer.failed}` },
      };
    }
    // A PDF has no markup to give back as raw_html.
    const wantsRaw = options.formats.includes('raw_html') && body !== undefined;
    return { content: { ...answer.content, ...(wantsRaw ? { raw_html: body } : {}) } };
  }

  private async result(
    request: RenderRequest,
    capture: Capture,
    options: ScrapeOptions,
    started: number,
    rendered: number,
    converted?: Converted,
  ): Promise<PageResult> {
    let error = capture.error ?? statusError(capture.status);
    let content: PageContent | undefined;
    if (capture.pdf) {
      converted ??= (await this.convert(capture, request.url, options, false)) as Converted;
      content = converted.content;
      error ??= converted.error;
    } else if (capture.body !== undefined && capture.kind) {
      if (tooLarge(capture.body)) {
        error = { code: 'TOO_LARGE', message: `the document exceeds ${MAX_HTML_BYTES} bytes` };
      } else {
        converted ??= (await this.convert(capture, request.url, options, false)) as Converted;
        content = converted.content;
        error ??= converted.error;
      }
    }
    let screenshot: string | undefined;
    if (capture.screenshot && options.formats.includes('screenshot')) {
      if (capture.screenshot.length > MAX_SCREENSHOT_BYTES) {
        error ??= { code: 'TOO_LARGE', message: `the screenshot exceeds ${MAX_SCREENSHOT_BYTES} bytes` };
      } else screenshot = capture.screenshot.toString('base64');
    }
    const { metadata, ...formats } = content ?? { metadata: NO_METADATA };
    const engine: EngineName = capture.engine;
    return {
      index: request.index ?? 0,
      url: request.url,
      final_url: capture.finalUrl,
      status_code: capture.status,
      ...formats,
      ...(screenshot ? { screenshot } : {}),
      ...(capture.actions ? { actions: capture.actions } : {}),
      metadata: { ...metadata, engine, ...RENDERED_NOW },
      timings: { total_ms: Date.now() - started, render_ms: rendered - started },
      ...(error ? { error } : {}),
    };
  }
}

function tooLarge(body: string): boolean {
  return Buffer.byteLength(body) > MAX_HTML_BYTES;
}
