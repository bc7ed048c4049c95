import puppeteer, { TimeoutError, type Browser, type LaunchOptions, type Page } from 'puppeteer-core';
import { Cluster } from 'puppeteer-cluster';
import { MAX_HTML_BYTES, MAX_TIMEOUT_MS } from '@app/queue-contracts';
import { withDeadline } from '../deadline';
import { browserProfile, userAgentOverride } from './browser-profile';
import { BrowserGoneError } from '../page-errors';
import { newPoolCounters, poolStats, type PoolStats } from '../pool-config';
import {
  KEEP_BROWSER_ON_SIGNALS,
  LAUNCH_MS,
  SETUP_MS,
  crashCapture,
  renderInTab,
  type BrowserEngineSettings,
  type BrowserTab,
} from './browser-render';
import { chromiumArgs } from './chromium';
import type { Capture, EngineRequest, RenderEngine } from './engine';
import { PageMonitor, type CdpClient } from './page-monitor';

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
 * Renders through puppeteer-cluster (a request's `engine: puppeteer`), limited by the same PoolLimits
 * as the Playwright pool. The cluster gives every page a fresh incognito context, so isolation
 * needs no keys here; it relaunches a browser that died, and this engine replaces the whole cluster
 * after browserMaxPages pages.
 */
export class PuppeteerEngine implements RenderEngine {
  readonly name = 'puppeteer' as const;
  private cluster: Promise<Cluster> | undefined;
  private pagesOnCluster = 0;
  private readonly retired = new Set<Promise<void>>();
  // The pool figures the Playwright pool reports (PoolStats), kept here since the cluster keeps none.
  private readonly counters = newPoolCounters();
  /** Connected browsers, each with the pages it has open. */
  private readonly browsers = new Map<Browser, number>();
  /** Browsers the current cluster launched (its first one, and the ones it relaunched after a crash). */
  private clusterBrowsers = new Set<Browser>();
  /** Browsers this engine is closing: their end is a recycle or the shutdown, not a crash. */
  private readonly closing = new Map<Browser, 'recycled' | 'shutdown'>();

  constructor(private readonly settings: BrowserEngineSettings) {}

  async capture(request: EngineRequest): Promise<Capture> {
    for (let attempt = 1; ; attempt++) {
      const cluster = await this.currentCluster();
      try {
        return (await cluster.execute(({ page }: { page: Page }) => this.render(page, request))) as Capture;
      } catch (err) {
        // The cluster fails the page with this when its renderer crashed.
        if ((err as Error)?.message === 'Page crashed!') {
          return {
            engine: this.name,
            finalUrl: null,
            status: null,
            error: { code: 'RENDER_CRASH', message: 'the page crashed the renderer' },
          };
        }
        // The cluster relaunches a browser that went away once its pages are closed.
        if (!(err instanceof BrowserGoneError)) throw err;
        if (attempt > 1) return crashCapture(this.name, err);
        this.counters.retries++;
      }
    }
  }

  /**
   * The pool's figures in the Playwright pool's terms. The cluster runs a browser (relaunched after
   * a crash) and gives every page a context of its own, closed with it: so contexts are the pages
   * open, none idle.
   */
  stats(): PoolStats {
    const figures = [...this.browsers.values()].map((pages) => ({
      pagesInFlight: pages,
      contexts: pages,
      contextsInUse: pages,
    }));
    return poolStats(figures, this.counters);
  }

  async close(): Promise<void> {
    for (const browser of this.clusterBrowsers) this.closing.set(browser, 'shutdown');
    const current = this.cluster;
    this.cluster = undefined;
    await Promise.all([current?.then((c) => c.close()), ...this.retired]);
  }

  private currentCluster(): Promise<Cluster> {
    if (this.cluster && this.pagesOnCluster >= this.settings.limits.browserMaxPages) {
      // Pages already queued on the old cluster finish there; it closes once idle.
      const browsers = this.clusterBrowsers;
      const retiring = this.cluster.then(async (c) => {
        await c.idle();
        for (const browser of browsers) this.closing.set(browser, 'recycled');
        await c.close();
      });
      this.retired.add(retiring);
      void retiring.catch(() => undefined).finally(() => this.retired.delete(retiring));
      this.cluster = undefined;
    }
    if (!this.cluster) {
      this.pagesOnCluster = 0;
      const browsers = new Set<Browser>();
      this.clusterBrowsers = browsers;
      const launching = Cluster.launch({
        concurrency: Cluster.CONCURRENCY_CONTEXT,
        maxConcurrency: this.settings.limits.concurrency,
        // Passed explicitly: the cluster would otherwise require 'puppeteer', which downloads Chrome.
        // Wrapped to see every browser it launches, relaunches after a crash included.
        puppeteer: { launch: (options: LaunchOptions) => this.launch(options, browsers) },
        puppeteerOptions: {
          executablePath: this.settings.executablePath,
          args: chromiumArgs(this.settings.proxyUrl),
          headless: 'shell',
          timeout: LAUNCH_MS,
          ...KEEP_BROWSER_ON_SIGNALS,
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

  private async launch(options: LaunchOptions, clusterBrowsers: Set<Browser>): Promise<Browser> {
    const browser = await puppeteer.launch(options);
    this.counters.browsersLaunched++;
    this.browsers.set(browser, 0);
    clusterBrowsers.add(browser);
    browser.once('disconnected', () => {
      this.browsers.delete(browser);
      clusterBrowsers.delete(browser);
      const reason = this.closing.get(browser);
      this.closing.delete(browser);
      if (reason === 'recycled') this.counters.browsersRecycled++;
      else if (!reason) this.counters.browsersLost++;
    });
    return browser;
  }

  private async render(page: Page, request: EngineRequest): Promise<Capture> {
    const browser = page.browser();
    this.counters.contextsCreated++;
    this.counters.tabsOpened++;
    this.browsers.set(browser, (this.browsers.get(browser) ?? 0) + 1);
    try {
      return await this.renderPage(page, request);
    } finally {
      const pages = this.browsers.get(browser);
      // A browser that went away is no longer counted.
      if (pages !== undefined) this.browsers.set(browser, pages - 1);
    }
  }

  private async renderPage(page: Page, request: EngineRequest): Promise<Capture> {
    const tab = tabOf(page);
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
    page.on('popup', (popup) => void popup?.close().catch(() => undefined));
    let monitor: PageMonitor;
    try {
      monitor = await withDeadline(this.prepare(page, request), SETUP_MS, 'preparing the page');
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

  private async prepare(page: Page, { options }: EngineRequest): Promise<PageMonitor> {
    const cdp = (await page.createCDPSession()) as unknown as CdpClient;
    const monitor = new PageMonitor(cdp, MAX_HTML_BYTES);
    await monitor.start();
    await monitor.beginPage(options.block_resources);
    const profile = browserProfile(options.mobile, await page.browser().version());
    await page.setViewport({
      ...profile.viewport,
      deviceScaleFactor: profile.deviceScaleFactor,
      isMobile: profile.isMobile,
      hasTouch: profile.hasTouch,
    });
    await cdp.send('Emulation.setUserAgentOverride', userAgentOverride(profile));
    // The caller's headers are secrets: set on the page, never logged.
    if (options.headers) await page.setExtraHTTPHeaders(options.headers);
    // A download is not a page: refuse it (Playwright's acceptDownloads: false).
    await cdp.send('Page.setDownloadBehavior', { behavior: 'deny' });
    return monitor;
  }
}
