import puppeteer, { TimeoutError, type Page } from 'puppeteer-core';
import { Cluster } from 'puppeteer-cluster';
import { MAX_HTML_BYTES, MAX_TIMEOUT_MS } from '@app/queue-contracts';
import { withDeadline } from '../deadline';
import { ACCEPT_LANGUAGE, browserProfile, mergeHeaders } from './browser-profile';
import { BrowserGoneError, renderInTab, type BrowserTab } from './browser-render';
import { chromiumArgs } from './chromium';
import type { Capture, EngineRequest, RenderEngine } from './engine';
import { PageMonitor, type CdpClient } from './page-monitor';
import { crashCapture, type BrowserEngineSettings } from './playwright.engine';

const LAUNCH_MS = 30_000;
const SETUP_MS = 10_000;

function tabOf(page: Page): BrowserTab {
  let crashed = false;
  // Puppeteer's 'error' event is the renderer crashing.
  page.on('error', () => (crashed = true));
  return {
    goto: async (url, timeout) => {
      const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout });
      return response && { status: response.status(), url: response.url(), text: () => response.text() };
    },
    waitForSelector: async (selector, timeout) => {
      await page.waitForSelector(selector, { timeout });
    },
    evaluate: (expression) => page.evaluate(expression),
    content: () => page.content(),
    screenshot: async (maxHeight) => {
      const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
      const width = page.viewport()?.width ?? 1280;
      const clip = height > maxHeight ? { x: 0, y: 0, width, height: maxHeight } : undefined;
      return Buffer.from(
        await page.screenshot({ type: 'png', fullPage: !clip, clip, captureBeyondViewport: true }),
      );
    },
    url: () => page.url(),
    get crashed() {
      return crashed;
    },
    gone: () => !page.browser().connected,
    isTimeout: (err) => err instanceof TimeoutError,
  };
}

/**
 * Renders through puppeteer-cluster (DESIGN.md "Rendering": `engine: puppeteer`). The cluster gives
 * every page a fresh incognito context, so isolation needs no keys here; it relaunches a browser
 * that died, and this engine replaces the whole cluster after browserMaxPages pages.
 */
export class PuppeteerEngine implements RenderEngine {
  readonly name = 'puppeteer' as const;
  private cluster: Promise<Cluster> | undefined;
  private pagesOnCluster = 0;
  private readonly retired = new Set<Promise<void>>();

  constructor(private readonly settings: BrowserEngineSettings) {}

  async capture(request: EngineRequest): Promise<Capture> {
    for (let attempt = 1; ; attempt++) {
      const cluster = await this.currentCluster();
      try {
        return (await cluster.execute(({ page }: { page: Page }) => this.render(page, request))) as Capture;
      } catch (err) {
        // The cluster relaunches a browser that went away once its pages are closed.
        if (!(err instanceof BrowserGoneError)) throw err;
        if (attempt > 1) return crashCapture(this.name, err);
      }
    }
  }

  async close(): Promise<void> {
    const current = this.cluster;
    this.cluster = undefined;
    await Promise.all([current?.then((c) => c.close()), ...this.retired]);
  }

  private currentCluster(): Promise<Cluster> {
    if (this.cluster && this.pagesOnCluster >= this.settings.limits.browserMaxPages) {
      // Pages already queued on the old cluster finish there; it closes once idle.
      const retiring = this.cluster.then(async (c) => {
        await c.idle();
        await c.close();
      });
      this.retired.add(retiring);
      void retiring.catch(() => undefined).finally(() => this.retired.delete(retiring));
      this.cluster = undefined;
    }
    if (!this.cluster) {
      this.pagesOnCluster = 0;
      const launching = Cluster.launch({
        concurrency: Cluster.CONCURRENCY_CONTEXT,
        maxConcurrency: this.settings.limits.concurrency,
        // Passed explicitly: the cluster would otherwise require 'puppeteer', which downloads Chrome.
        puppeteer,
        puppeteerOptions: {
          executablePath: this.settings.executablePath,
          args: chromiumArgs(this.settings.proxyUrl),
          headless: 'shell',
          timeout: LAUNCH_MS,
        },
        // A backstop only: every step of a page has its own, shorter deadline.
        timeout: MAX_TIMEOUT_MS + 60_000,
        retryLimit: 0,
      });
      this.cluster = launching;
      // A launch that failed is tried again by the next page.
      launching.catch(() => {
        if (this.cluster === launching) this.cluster = undefined;
      });
    }
    this.pagesOnCluster++;
    return this.cluster;
  }

  private async render(page: Page, request: EngineRequest): Promise<Capture> {
    const { options } = request;
    const tab = tabOf(page);
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
    page.on('popup', (popup) => void popup?.close().catch(() => undefined));
    let monitor: PageMonitor;
    try {
      await withDeadline(this.prepare(page, request), SETUP_MS, 'preparing the page');
      const cdp = (await withDeadline(
        page.createCDPSession(),
        SETUP_MS,
        'opening a CDP session',
      )) as unknown as CdpClient;
      monitor = new PageMonitor(cdp, MAX_HTML_BYTES);
      await withDeadline(monitor.start(options.block_resources), SETUP_MS, 'watching the page');
      // A download is not a page: refuse it (Playwright's acceptDownloads: false).
      await cdp.send('Page.setDownloadBehavior', { behavior: 'deny' });
    } catch (err) {
      if (tab.gone()) throw new BrowserGoneError(err);
      throw err;
    }
    return renderInTab(tab, monitor, request, {
      ...this.settings,
      engine: this.name,
      // The cluster closes the page's context after every page anyway.
      onHung: () => undefined,
    });
  }

  private async prepare(page: Page, { options }: EngineRequest): Promise<void> {
    const profile = browserProfile(options.mobile, await page.browser().version());
    await page.setUserAgent({ userAgent: profile.userAgent });
    await page.setViewport({
      ...profile.viewport,
      deviceScaleFactor: profile.deviceScaleFactor,
      isMobile: profile.isMobile,
      hasTouch: profile.hasTouch,
    });
    await page.setExtraHTTPHeaders(mergeHeaders({ 'accept-language': ACCEPT_LANGUAGE }, options.headers));
  }
}
