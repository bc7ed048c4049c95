import { chromium, errors, type Browser, type Page } from 'playwright-core';
import { MAX_HTML_BYTES } from '@app/queue-contracts';
import { BrowserPool, type ContextProfile, type PageLease } from '../browser-pool';
import { withDeadline } from '../deadline';
import { browserProfile, userAgentOverride } from './browser-profile';
import { BrowserGoneError, StaleTabError } from '../page-errors';
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

/** Playwright's goto when a document other than the one it asked for committed first. */
const INTERRUPTED = /is interrupted by another navigation/;

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
      const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout }).catch((err) => {
        // Another document committed before this one: only the tab's last page can have started it.
        throw INTERRUPTED.test(String((err as Error)?.message)) ? new StaleTabError(err) : err;
      });
      return response && { status: response.status(), url: response.url(), text: () => response.text() };
    },
    screenshot: (clip) =>
      page.screenshot({ type: 'png', fullPage: true, clip: { x: 0, y: 0, ...clip }, timeout: 0 }),
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
  /** Each browser's process id: Playwright's Browser does not tell it. */
  private readonly pids = new WeakMap<Browser, number>();
  /** Why the memory bound killed a browser, for its pages' RENDER_CRASH. */
  private readonly killedFor = new WeakMap<Browser, string>();

  constructor(private readonly settings: BrowserEngineSettings) {
    this.pool = new BrowserPool(settings.limits, {
      launch: () => this.launch(),
      kill: (browser) => {
        const pid = this.pids.get(browser);
        if (pid) killBrowserTree(pid);
      },
      newContext: (browser, { mobile, proxyServer }) => {
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
          // As the browser's own flag: loopback goes through the proxy too, never around it.
          ...(proxyServer ? { proxy: { server: proxyServer, bypass: '<-loopback>' } } : {}),
        });
      },
    });
  }

  stats() {
    return this.pool.stats();
  }

  /**
   * A browser, watched by the memory bound from launch until it goes; what it leaves behind when it
   * goes (a renderer that outlived a crashed browser) is killed.
   */
  private async launch(): Promise<Browser> {
    const browser = await chromium.launch({
      executablePath: this.settings.executablePath,
      args: chromiumArgs(this.settings.proxyUrl, this.settings.sandbox),
      // Playwright adds --no-sandbox itself unless told otherwise.
      chromiumSandbox: this.settings.sandbox,
      env: browserEnvironment(process.env),
      timeout: LAUNCH_MS,
      ...KEEP_BROWSER_ON_SIGNALS,
    });
    try {
      const session = await browser.newBrowserCDPSession();
      const { processInfo } = (await withDeadline(
        session.send('SystemInfo.getProcessInfo'),
        SETUP_MS,
        'asking the browser for its process',
      )) as { processInfo: { type: string; id: number }[] };
      await session.detach();
      const pid = processInfo.find((p) => p.type === 'browser')!.id;
      this.pids.set(browser, pid);
      this.settings.memory.watch(pid, (reason) => {
        this.killedFor.set(browser, reason);
        killBrowserTree(pid);
      });
      browser.once('disconnected', () => {
        this.settings.memory.unwatch(pid);
        killBrowserTree(pid);
      });
    } catch (err) {
      await browser.close().catch(() => undefined);
      throw err;
    }
    return browser;
  }

  async capture(request: EngineRequest): Promise<Capture> {
    const mobile = request.options.mobile;
    const egress = request.proxy && (await this.settings.egressVia(request.proxy));
    const profile: ContextProfile = {
      key: `${request.isolationKey}\u0000${mobile ? 'mobile' : 'desktop'}`,
      mobile,
      // A session's or a proxied page has a context of its own, shared with nothing else.
      single: request.session !== undefined || egress !== undefined,
      proxyServer: egress?.url,
    };
    try {
      return await this.pool.withPage(profile, (lease) => this.render(lease, request));
    } catch (err) {
      if (err instanceof BrowserGoneError) return crashCapture(this.name, err);
      throw err;
    } finally {
      await egress?.close();
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async render(
    { page, browser, retireContext, keepPage, abandonPage }: PageLease,
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
        onHung: () => {
          retireContext();
          abandonPage();
        },
      });
      if (request.session && !tab.crashed) await keepSession(monitor, request.session);
      // A page that failed is not reused (it may still be busy), nor one that navigated by itself
      // (it may again, under the next page's load). The caller's headers go with the page
      // (beginPage), so a tab that had them serves the next page without them.
      if (!capture.error && !tab.crashed && !monitor.navigatedItself) keepPage();
      return capture;
    } catch (err) {
      const reason = this.killedFor.get(browser);
      throw err instanceof BrowserGoneError && reason ? new BrowserGoneError(reason) : err;
    } finally {
      tab.dispose();
      page.off('popup', onPopup);
    }
  }

  /**
   * Our CDP session on the tab, opened for its first page and kept with the tab (the pool reuses
   * clean tabs: attaching and setting a session up again cost every page about 20 ms), then the
   * page's blocking and headers.
   */
  private async prepare(page: Page, browser: Browser, request: EngineRequest): Promise<PageMonitor> {
    const { options } = request;
    let monitor = this.monitors.get(page);
    if (!monitor) {
      const cdp = (await page.context().newCDPSession(page)) as unknown as CdpClient;
      monitor = new PageMonitor(cdp, MAX_HTML_BYTES, this.settings.pdfMaxBytes);
      await monitor.start();
      // A tab stays in its context, whose pages all have its device profile (ContextProfile).
      await cdp.send(
        'Emulation.setUserAgentOverride',
        userAgentOverride(browserProfile(options.mobile, browser.version())),
      );
      this.monitors.set(page, monitor);
    }
    await monitor.beginPage(options.block_resources, headersForOrigin(request));
    if (request.session) await restoreSession(monitor, request.session);
    return monitor;
  }
}
