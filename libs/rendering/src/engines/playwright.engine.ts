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

function tabOf(page: Page, browser: Browser): BrowserTab {
  let crashed = false;
  page.on('crash', () => (crashed = true));
  return {
    goto: async (url, timeout) => {
      const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout });
      return response && { status: response.status(), url: response.url(), text: () => response.text() };
    },
    waitForSelector: async (selector, timeout) => {
      await page.waitForSelector(selector, { state: 'attached', timeout });
    },
    evaluate: (expression) => page.evaluate(expression),
    content: () => page.content(),
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

/** Renders in pooled Playwright browsers (DESIGN.md "Rendering"; the default engine). */
export class PlaywrightEngine implements RenderEngine {
  readonly name = 'playwright' as const;
  private readonly pool: BrowserPool;

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
    { page, browser, retireContext }: PageLease,
    request: EngineRequest,
  ): Promise<Capture> {
    const tab = tabOf(page, browser);
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
    page.on('popup', (popup) => void popup.close().catch(() => undefined));
    let monitor: PageMonitor;
    try {
      monitor = await withDeadline(this.prepare(page, browser, request), SETUP_MS, 'preparing the page');
    } catch (err) {
      if (tab.gone()) throw new BrowserGoneError(err);
      throw err;
    }
    return renderInTab(tab, monitor, request, { ...this.settings, engine: this.name, onHung: retireContext });
  }

  private async prepare(page: Page, browser: Browser, { options }: EngineRequest): Promise<PageMonitor> {
    const cdp = (await page.context().newCDPSession(page)) as unknown as CdpClient;
    const monitor = new PageMonitor(cdp, MAX_HTML_BYTES);
    await monitor.start(options.block_resources);
    await cdp.send(
      'Emulation.setUserAgentOverride',
      userAgentOverride(browserProfile(options.mobile, browser.version())),
    );
    // The caller's headers are secrets: set on the page, never logged.
    if (options.headers) await page.setExtraHTTPHeaders(options.headers);
    return monitor;
  }
}
