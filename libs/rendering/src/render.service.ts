import { InvalidRequestError } from '@app/common';
import { parseTargetUrl } from '@app/net-guard';
import {
  MAX_SCREENSHOT_BYTES,
  MAX_TIMEOUT_MS,
  MAX_HTML_BYTES,
  SCRAPE_DEFAULTS,
  type EngineName,
  type PageResult,
  type ScrapeOptions,
} from '@app/queue-contracts';
import { parseDocument } from './content/html-document';
import { needsJavaScript } from './content/needs-javascript';
import { buildContent, type PageContent } from './content/page-content';
import type { Capture, EngineRequest, RenderEngine } from './engines/engine';
import { firstLine, statusError } from './page-errors';

export interface RenderRequest {
  url: string;
  /** The page's position in its job (0 for a single scrape). */
  index?: number;
  options: ScrapeOptions;
  /** Pages with different keys never share browser state: pass the account id. */
  isolationKey: string;
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

const NO_METADATA = { title: null, description: null, language: null, canonical_url: null };

/**
 * Page in, page result out (docs/api.md, Page result; docs/decisions.md, Rendering). Page-level
 * failures come back as the result's `error`; it throws only when the machinery failed (no browser could be
 * launched, the egress proxy is gone), which the caller should retry.
 */
export class RenderService {
  private readonly listeners: RenderListener[] = [];

  constructor(private readonly engines: RenderEngines) {}

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
    const { capture, document } = await this.capture({
      url,
      options: { ...options, timeout },
      isolationKey: request.isolationKey,
      deadline: started + timeout,
    });
    return this.result(request, capture, options, started, Date.now(), document);
  }

  /** render: http and browser use their engine; auto starts with http and moves on if needed. */
  private async capture(request: EngineRequest): Promise<{ capture: Capture; document?: Document }> {
    const { options } = request;
    const browser = this.engines[options.engine];
    // Only a browser can wait for something or take a picture.
    const browserOnly = options.formats.includes('screenshot') || options.wait_for !== undefined;
    if (options.render === 'browser' || (options.render === 'auto' && browserOnly)) {
      return { capture: await browser.capture(request) };
    }
    const capture = await this.engines.http.capture(request);
    if (options.render === 'http' || capture.error || capture.kind !== 'html' || capture.body === undefined) {
      return { capture };
    }
    if ((capture.status ?? 0) >= 400) return { capture };
    const document = parseDocument(capture.body);
    if (!needsJavaScript(document).needed) return { capture, document };
    return { capture: await browser.capture(request) };
  }

  private result(
    request: RenderRequest,
    capture: Capture,
    options: ScrapeOptions,
    started: number,
    rendered: number,
    document?: Document,
  ): PageResult {
    let error = capture.error ?? statusError(capture.status);
    let content: PageContent | undefined;
    if (capture.body !== undefined && capture.kind) {
      if (Buffer.byteLength(capture.body) > MAX_HTML_BYTES) {
        error = { code: 'TOO_LARGE', message: `the document exceeds ${MAX_HTML_BYTES} bytes` };
      } else {
        try {
          content = buildContent({
            body: capture.body,
            kind: capture.kind,
            url: capture.finalUrl ?? request.url,
            options,
            document,
          });
        } catch (err) {
          error ??= {
            code: 'RENDER_CRASH',
            message: `the page could not be converted: ${firstLine(err)}`,
          };
        }
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
      metadata: { ...metadata, engine },
      timings: { total_ms: Date.now() - started, render_ms: rendered - started },
      ...(error ? { error } : {}),
    };
  }
}
