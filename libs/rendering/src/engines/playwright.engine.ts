import { chromium, errors, type Browser, type Page } from 'playwright-core';
import { MAX_HTML_BYTES } from '@app/queue-contracts';
import { BrowserPool, type ContextProfile, type PageLease } from '../browser-pool';
import { withDeadline } from '../deadline';
import { browserProfile, userAgentOverride } from './browser-profile';
import { BrowserGoneError } from '../page-errors';
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

/** Whether navigating from `current` to `target` would only move to `target`'s fragment. */
function sameDocument(current: string, target: string): boolean {
  const withoutHash = (url: string) => url.replace(/#.*$/s, '');
  return target.includes('#') && withoutHash(current) === withoutHash(target);
}

/** The page as the render flow sees it; `dispose` removes the listener it added (the tab may be reused). */
function tabOf(page: Page, browser: Browser): BrowserTab & { dispose(): void } {
  let crashed = false;
  const onCrash = () => (crashed = true);
  page.on('crash', onCrash);
  return {
    dispose: () => page.off('crash', onCrash),
    goto: async (url, timeout) => {
      // A kept tab still shows its last page (BrowserPool): from there, a URL that differs only in
      // its fragment would be a same-document navigation, not a load.
      if (sameDocument(page.url(), url)) await page.goto('about:blank', { timeout });
      const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout });
      return response && { status: response.status(), url: response.url(), text: () => response.text() };
    },
    waitForSelector: async (selector, timeout) => {
      // Not page.waitForSelector: the ElementHandle it returns stays in the worker until the tab closes.
      await page.locator(selector).first().waitFor({ state: 'attached', timeout });
    },
    screenshot: async (maxHeight) => {
      const height = await page.evaluate<number>('document.documentElement.scrollHeight');
      const width = page.viewportSize()?.width ?? 1280;
      const clip = height > maxHeight ? { x: 0, y: 0, width, height: maxHeight } : undefined;
      return page.screenshot({ type: 'png', fullPage: true, clip, timeout: 0 });
    },
    url: () => page.url(),
    get crashed() {
      return crashed;
    },
    gone: () => !browser.isConnected(),
    isTimeout: (err) => err instanceof errors.TimeoutError,
  };
}

/** Renders in pooled Playwright browsers (BrowserPool); the default engine. */
export class PlaywrightEngine implements RenderEngine {
  readonly name = 'playwright' as const;
  private readonly pool: BrowserPool;
  /** Our CDP session on each open tab (a tab the pool reuses keeps it). */
  private readonly monitors = new WeakMap<Page, PageMonitor>();

  constructor(private readonly settings: BrowserEngineSettings) {
    this.pool = new BrowserPool(settings.limits, {
      launch: () =>
        chromium.launch({
          executablePath: settings.executablePath,
          args: chromiumArgs(settings.proxyUrl),
          timeout: LAUNCH_MS,
          ...KEEP_BROWSER_ON_SIGNALS,
        }),
      newContext: (browser, { mobile }) => {
        // The user agent and client hints are set per page (userAgentOverride), for both engines alike.
        const profile = browserProfile(mobile);
        return browser.newContext({
          viewport: profile.viewport,
          deviceScaleFactor: profile.deviceScaleFactor,
          isMobile: profile.isMobile,
          hasTouch: profile.hasTouch,
          // A download is not a page: Chromium cancels it.
          acceptDownloads: false,
          // A worker registered by one page could answer the next page's requests from its own cache.
          serviceWorkers: 'block',
        });
      },
    });
  }

  stats() {
    return this.pool.stats();
  }

  async capture(request: EngineRequest): Promise<Capture> {
    const mobile = request.options.mobile;
    const profile: ContextProfile = {
      key: `${request.isolationKey}\u0000${mobile ? 'mobile' : 'desktop'}`,
      mobile,
    };
    try {
      return await this.pool.withPage(profile, (lease) => this.render(lease, request));
    } catch (err) {
      if (err instanceof BrowserGoneError) return crashCapture(this.name, err);
      throw err;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async render(
    { page, browser, retireContext, keepPage }: PageLease,
    request: EngineRequest,
  ): Promise<Capture> {
    const tab = tabOf(page, browser);
    // No dialog listener: Playwright dismisses a dialog nobody listens for (accepts a
    // beforeunload) by itself, and a listener costs two protocol calls a page to subscribe.
    const onPopup = (popup: Page) => void popup.close().catch(() => undefined);
    page.on('popup', onPopup);
    try {
      let monitor: PageMonitor;
      try {
        monitor = await withDeadline(this.prepare(page, browser, request), SETUP_MS, 'preparing the page');
      } catch (err) {
        if (tab.gone()) throw new BrowserGoneError(err);
        throw err;
      }
      const capture = await renderInTab(tab, monitor, request, {
        ...this.settings,
        engine: this.name,
        onHung: retireContext,
      });
      // The caller's headers stay on a page (they are secrets): such a page is not reused, nor is
      // one that failed (it may still be busy).
      if (!capture.error && !tab.crashed && !request.options.headers) keepPage();
      return capture;
    } finally {
      tab.dispose();
      page.off('popup', onPopup);
    }
  }

  /**
   * Our CDP session on the tab, opened for its first page and kept with the tab (the pool reuses
   * clean tabs: attaching and setting a session up again cost every page about 20 ms), then the
   * caller's headers.
   */
  private async prepare(page: Page, browser: Browser, { options }: EngineRequest): Promise<PageMonitor> {
    let monitor = this.monitors.get(page);
    if (!monitor) {
      const cdp = (await page.context().newCDPSession(page)) as unknown as CdpClient;
      monitor = new PageMonitor(cdp, MAX_HTML_BYTES);
      await monitor.start();
      // A tab stays in its context, whose pages all have its device profile (ContextProfile).
      await cdp.send(
        'Emulation.setUserAgentOverride',
        userAgentOverride(browserProfile(options.mobile, browser.version())),
      );
      this.monitors.set(page, monitor);
    }
    await monitor.beginPage(options.block_resources);
    // The caller's headers are secrets: set on the page, never logged.
    if (options.headers) await page.setExtraHTTPHeaders(options.headers);
    return monitor;
  }
}
