import puppeteer, { TimeoutError, type Browser, type LaunchOptions, type Page } from 'puppeteer-core';
import { Cluster } from 'puppeteer-cluster';
import { MAX_HTML_BYTES, MAX_TIMEOUT_MS } from '@app/queue-contracts';
import { CLOSE_GRACE_MS } from '../browser-pool';
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
import { killBrowserTree } from './browser-process';
import { chromiumArgs } from './chromium';
import { browserEnvironment } from './containment';
import type { Capture, EngineRequest, RenderEngine } from './engine';
import { headersForOrigin } from './origin-headers';
import { PageMonitor, type CdpClient } from './page-monitor';
import { keepSession, restoreSession } from './session-state';

function tabOf(page: Page): BrowserTab {
  let crashed = false;
  // Puppeteer's 'error' event is the renderer crashing.
  page.on('error', () => (crashed = true));
  return {
    goto: async (url, timeout) => {
      const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout });
      return response && { status: response.status(), url: response.url(), text: () => response.text() };
    },
    screenshot: async (clip) =>
      Buffer.from(
        await page.screenshot({ type: 'png', clip: { x: 0, y: 0, ...clip }, captureBeyondViewport: true }),
      ),
    url: () => page.url(),
    get crashed() {
      return crashed;
    },
    gone: () => !page.browser().connected,
    isTimeout: (err) => err instanceof TimeoutError,
  };
}

/** Shutting the browsers down; past it they are killed. */
const CLOSE_BROWSERS_MS = 10_000;

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
  /** Why the memory bound killed a browser, for its pages' RENDER_CRASH. */
  private readonly killedFor = new WeakMap<Browser, string>();

  /** Closed: no cluster is launched again, not even for a page's retry. */
  private shutDown = false;

  constructor(private readonly settings: BrowserEngineSettings) {}

  async capture(request: EngineRequest): Promise<Capture> {
    for (let attempt = 1; ; attempt++) {
      if (this.shutDown) throw new Error('the puppeteer engine is closed');
      const cluster = await this.currentCluster();
      let deliver!: (capture: Capture) => void;
      const rendered = new Promise<Capture>((resolve) => (deliver = resolve));
      const executed = cluster.execute(async ({ page }: { page: Page }) => {
        let abandoned = false;
        deliver(await this.render(page, request, () => (abandoned = true)));
        if (abandoned) await this.stopTab(page);
      });
      try {
        // The page's result as soon as it is known: the cluster closes its context (and relaunches
        // a browser that went away) after it.
        return await Promise.race([rendered, executed.then(() => rendered)]);
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
    this.shutDown = true;
    for (const browser of this.clusterBrowsers) this.closing.set(browser, 'shutdown');
    const current = this.cluster;
    this.cluster = undefined;
    const closed = Promise.all([current?.then((c) => c.close()), ...this.retired]);
    // The cluster waits on each browser's close without a bound: one that will not go (a renderer
    // stuck in layout) must not hold the worker's exit.
    await withDeadline(closed, CLOSE_BROWSERS_MS, 'closing the browsers').catch(() => undefined);
    // Also what the cluster relaunched meanwhile (a repair after a killed browser closes nothing).
    for (const browser of this.browsers.keys()) {
      const pid = browser.process()?.pid;
      if (pid) killBrowserTree(pid);
    }
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
          args: chromiumArgs(this.settings.proxyUrl, this.settings.sandbox),
          env: browserEnvironment(process.env),
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

  /**
   * A tab given up (hung, or past its deadline) is closed at once; if it has not closed within
   * CLOSE_GRACE_MS, its browser is killed (the cluster relaunches it), so no renderer goes on with it.
   */
  private async stopTab(page: Page): Promise<void> {
    await withDeadline(page.close(), CLOSE_GRACE_MS, 'closing a page').catch(() => {
      const pid = page.browser().process()?.pid;
      if (pid) killBrowserTree(pid);
    });
  }

  private async launch(options: LaunchOptions, clusterBrowsers: Set<Browser>): Promise<Browser> {
    const browser = await puppeteer.launch(options);
    this.counters.browsersLaunched++;
    this.browsers.set(browser, 0);
    clusterBrowsers.add(browser);
    // Watched by the memory bound until it goes; what it leaves behind then is killed (the cluster
    // gives up on closing a browser after 5 s and leaves it running).
    const pid = browser.process()?.pid;
    // The cluster repairs a browser lost under a page even after its close: that one goes at once.
    if (this.shutDown && pid) killBrowserTree(pid);
    else if (pid) {
      this.settings.memory.watch(pid, (reason) => {
        this.killedFor.set(browser, reason);
        killBrowserTree(pid);
      });
    }
    browser.once('disconnected', () => {
      if (pid) {
        this.settings.memory.unwatch(pid);
        killBrowserTree(pid);
      }
      this.browsers.delete(browser);
      clusterBrowsers.delete(browser);
      const reason = this.closing.get(browser);
      this.closing.delete(browser);
      if (reason === 'recycled') this.counters.browsersRecycled++;
      else if (!reason) this.counters.browsersLost++;
    });
    return browser;
  }

  private async render(page: Page, request: EngineRequest, onAbandon: () => void): Promise<Capture> {
    const browser = page.browser();
    this.counters.contextsCreated++;
    this.counters.tabsOpened++;
    this.browsers.set(browser, (this.browsers.get(browser) ?? 0) + 1);
    try {
      return await (request.proxy
        ? this.renderProxied(page, request, onAbandon)
        : this.renderPage(page, request, onAbandon));
    } catch (err) {
      const reason = this.killedFor.get(browser);
      throw err instanceof BrowserGoneError && reason ? new BrowserGoneError(reason) : err;
    } finally {
      const pages = this.browsers.get(browser);
      // A browser that went away is no longer counted.
      if (pages !== undefined) this.browsers.set(browser, pages - 1);
    }
  }

  /**
   * A page with an upstream proxy, in a context of its own pointed at an egress proxy of its own
   * (the cluster's contexts take no proxy); both closed after it.
   */
  private async renderProxied(page: Page, request: EngineRequest, onAbandon: () => void): Promise<Capture> {
    const egress = await this.settings.egressVia(request.proxy!);
    try {
      const context = await page.browser().createBrowserContext({
        proxyServer: egress.url,
        // As the browser's own flag: loopback goes through the proxy too, never around it.
        proxyBypassList: ['<-loopback>'],
      });
      try {
        return await this.renderPage(await context.newPage(), request, onAbandon);
      } finally {
        await context.close().catch(() => undefined);
      }
    } finally {
      await egress.close();
    }
  }

  private async renderPage(page: Page, request: EngineRequest, onAbandon: () => void): Promise<Capture> {
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
    const capture = await renderInTab(tab, monitor, request, {
      ...this.settings,
      engine: this.name,
      // The cluster closes the page's context after every page anyway.
      onHung: onAbandon,
    });
    // The cluster's contexts are fresh for every page: a session's is its own.
    if (request.session && !tab.crashed) await keepSession(monitor, request.session);
    return capture;
  }

  private async prepare(page: Page, request: EngineRequest): Promise<PageMonitor> {
    const { options } = request;
    const cdp = (await page.createCDPSession()) as unknown as CdpClient;
    const monitor = new PageMonitor(cdp, MAX_HTML_BYTES, this.settings.pdfMaxBytes);
    await monitor.start();
    await monitor.beginPage(options.block_resources, headersForOrigin(request));
    if (request.session) await restoreSession(monitor, request.session);
    const profile = browserProfile(options.mobile, await page.browser().version());
    await page.setViewport({
      ...profile.viewport,
      deviceScaleFactor: profile.deviceScaleFactor,
      isMobile: profile.isMobile,
      hasTouch: profile.hasTouch,
    });
    await cdp.send('Emulation.setUserAgentOverride', userAgentOverride(profile));
    // A download is not a page: refuse it (Playwright's acceptDownloads: false).
    await cdp.send('Page.setDownloadBehavior', { behavior: 'deny' });
    return monitor;
  }
}
