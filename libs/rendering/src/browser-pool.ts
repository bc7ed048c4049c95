import type { Browser, BrowserContext, Page } from 'playwright-core';
import { withDeadline } from './deadline';
import { BrowserGoneError, StaleTabError } from './page-errors';
import { newPoolCounters, poolStats, type PoolLimits, type PoolStats } from './pool-config';

/** Who may share a context: one isolation key (an account) in one device profile. */
export interface ContextProfile {
  key: string;
  mobile: boolean;
  /** A context of its own, fresh and closed after the page (a session's page: nothing else shares it). */
  single?: boolean;
  /** With single: the context's own proxy (a page's own egress proxy, for its upstream proxy). */
  proxyServer?: string;
}

export interface PoolHooks {
  launch(): Promise<Browser>;
  newContext(browser: Browser, profile: ContextProfile): Promise<BrowserContext>;
  /** Kills the browser and all its processes at once (it then disconnects). */
  kill(browser: Browser): void;
}

export interface PageLease {
  page: Page;
  browser: Browser;
  /** The page stopped answering: its context takes no more pages and closes once they are done. */
  retireContext(): void;
  /**
   * The page ended clean (no error, nothing of the caller's left on it): it may serve the next page
   * of its context instead of being closed. Otherwise it is closed.
   */
  keepPage(): void;
  /**
   * The page is given up (hung, or past its deadline): its tab is closed without the caller
   * waiting, and if it has not closed within CLOSE_GRACE_MS its browser is killed, so no renderer
   * goes on with it. The page's slot stays taken until then.
   */
  abandonPage(): void;
}

/** Opening or closing a page or context; past this the browser is taken to be stuck. */
const OPERATION_MS = 10_000;
/**
 * How long an abandoned tab gets to close. Closing does not wait for a busy renderer (an SVG bomb's
 * tab closed in about 0.5 s, its renderer exiting with it), so a tab still there is taken as stuck.
 */
export const CLOSE_GRACE_MS = 2000;
/**
 * How long a kept tab goes on showing its last page before it is parked on about:blank. A busy
 * pool hands it to the next page before that: navigating on from the last page costs Chromium
 * about 80 ms of CPU a page less than parking first (docs/decisions.md, "Rendering").
 */
const PARK_AFTER_MS = 1000;

class BrowserSlot {
  readonly contexts: ContextSlot[] = [];
  pages = 0;
  active = 0;
  retiring = false;
  gone = false;
  constructor(readonly browser: Browser) {}
}

/** A tab kept after a clean page; `parking` is the timer that will move it to about:blank. */
interface IdleTab {
  page: Page;
  parking?: NodeJS.Timeout;
}

class ContextSlot {
  pages = 0;
  active = 0;
  /** Tabs kept after a clean page, most recent last, reused before a new one is opened. */
  readonly idle: IdleTab[] = [];
  /** Kept tabs on their way to about:blank: each settles once its tab is back in `idle` or closed. */
  readonly parking = new Set<Promise<void>>();
  retiring = false;
  lastUsed = Date.now();
  constructor(
    readonly owner: BrowserSlot,
    readonly key: string,
    readonly context: BrowserContext,
  ) {}
}

/** A kept tab that is still open (a renderer may have died under it while it waited). */
function takeIdle(slot: ContextSlot): Page | undefined {
  for (let tab = slot.idle.pop(); tab; tab = slot.idle.pop()) {
    clearTimeout(tab.parking);
    if (!tab.page.isClosed()) return tab.page;
  }
  return undefined;
}

/** Counts pages in flight; the rest wait in arrival order. */
class Semaphore {
  private readonly waiting: (() => void)[] = [];
  constructor(private free: number) {}

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/**
 * Pooled Playwright browsers. Pages of one profile key share a context
 * (cookies, cache), pages of different keys never do; a context is replaced after
 * contextMaxPages pages and a browser after browserMaxPages; a browser that crashes or is killed
 * is dropped, and the pages it held are started once more on a fresh one.
 */
export class BrowserPool {
  private readonly browsers: BrowserSlot[] = [];
  private readonly slots: Semaphore;
  /** Picking and creating contexts happens one lease at a time, so limits hold under concurrency. */
  private picking: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Abandoned tabs being closed. */
  private readonly stopping = new Set<Promise<void>>();
  private readonly counters = newPoolCounters();

  constructor(
    private readonly limits: PoolLimits,
    private readonly hooks: PoolHooks,
  ) {
    this.slots = new Semaphore(limits.concurrency);
  }

  /**
   * Runs `task` on a fresh page of a context for `profile`. If the browser goes away under it
   * (BrowserGoneError), the task runs once more on a fresh browser; if a kept tab's last page
   * navigated under it (StaleTabError), once more on a new tab. A second failure is thrown.
   */
  async withPage<T>(profile: ContextProfile, task: (lease: PageLease) => Promise<T>): Promise<T> {
    await this.slots.acquire();
    // An abandoned page hands its slot back only once its tab is gone.
    let slotHeld = false;
    let stale = false;
    try {
      for (let attempt = 1; ; attempt++) {
        let slot: ContextSlot | undefined;
        let page: Page | undefined;
        let keep = false;
        let abandoned = false;
        try {
          slot = await this.serialized(() => this.pickContext(profile));
          const picked = slot;
          page = stale ? await this.openTab(picked) : await this.tabFor(picked);
          return await task({
            page,
            browser: picked.owner.browser,
            retireContext: () => (picked.retiring = true),
            keepPage: () => (keep = true),
            abandonPage: () => (abandoned = true),
          });
        } catch (err) {
          const lost = err instanceof BrowserGoneError || (slot !== undefined && slot.owner.gone);
          stale = err instanceof StaleTabError;
          if (!(lost || stale) || attempt > 1 || this.closed) throw err;
          this.counters.retries++;
        } finally {
          if (slot && abandoned && page && !slotHeld) {
            slotHeld = true;
            const stopping = this.release(slot, page, false, true).finally(() => {
              this.stopping.delete(stopping);
              this.slots.release();
            });
            this.stopping.add(stopping);
          } else if (slot) await this.release(slot, page, keep);
        }
      }
    } finally {
      if (!slotHeld) this.slots.release();
    }
  }

  stats(): PoolStats {
    const figures = this.browsers.map((b) => ({
      pagesInFlight: b.active,
      contexts: b.contexts.length,
      contextsInUse: b.contexts.filter((c) => c.active > 0).length,
    }));
    return poolStats(figures, this.counters);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.stopping);
    await Promise.all([...this.browsers].map((slot) => this.closeBrowser(slot)));
  }

  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.picking.then(fn, fn);
    this.picking = run.catch(() => undefined);
    return run;
  }

  /** An operation on the browser with a deadline; failing because the browser left is BrowserGoneError. */
  private async guard<T>(owner: BrowserSlot, operation: () => Promise<T>, what: string): Promise<T> {
    try {
      return await withDeadline(operation(), OPERATION_MS, what);
    } catch (err) {
      if (owner.gone || !owner.browser.isConnected()) throw new BrowserGoneError(err);
      // A browser that cannot open a page in time is stuck: let it go once its pages are done.
      owner.retiring = true;
      throw err;
    }
  }

  private async pickContext(profile: ContextProfile): Promise<ContextSlot> {
    if (this.closed) throw new Error('the browser pool is closed');
    const live = this.browsers.filter((b) => !b.gone && !b.retiring);
    const shared = profile.single
      ? undefined
      : live
          .flatMap((b) => b.contexts)
          .filter((c) => c.key === profile.key && !c.retiring)
          .sort((a, b) => a.active - b.active)[0];
    const slot = shared ?? (await this.newContext(live, profile));
    if (profile.single) slot.retiring = true;
    slot.active++;
    slot.pages++;
    slot.lastUsed = Date.now();
    slot.owner.active++;
    slot.owner.pages++;
    if (slot.pages >= this.limits.contextMaxPages) slot.retiring = true;
    if (slot.owner.pages >= this.limits.browserMaxPages) slot.owner.retiring = true;
    return slot;
  }

  private async newContext(live: BrowserSlot[], profile: ContextProfile): Promise<ContextSlot> {
    let owner = [...live].sort((a, b) => a.active - b.active)[0];
    if (!owner || (owner.active > 0 && live.length < this.limits.browsers)) owner = await this.launch();
    if (owner.contexts.length >= this.limits.contextsPerBrowser) {
      const idle = owner.contexts.filter((c) => c.active === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0];
      // With every context busy the cap is exceeded for a while rather than making pages wait.
      if (idle) await this.closeContext(idle);
    }
    const context = await this.guard(
      owner,
      () => this.hooks.newContext(owner.browser, profile),
      'creating a context',
    );
    const slot = new ContextSlot(owner, profile.key, context);
    owner.contexts.push(slot);
    this.counters.contextsCreated++;
    return slot;
  }

  /**
   * A kept tab; else one being parked, which is back within a navigation to about:blank, while a
   * new tab costs a renderer process that then stays with the context; else a new tab.
   */
  private async tabFor(slot: ContextSlot): Promise<Page> {
    for (;;) {
      const page = takeIdle(slot);
      if (page) return page;
      if (slot.parking.size === 0) return this.openTab(slot);
      await Promise.race(slot.parking);
    }
  }

  private async openTab(slot: ContextSlot): Promise<Page> {
    const page = await this.guard(slot.owner, () => slot.context.newPage(), 'opening a page');
    this.counters.tabsOpened++;
    return page;
  }

  private async launch(): Promise<BrowserSlot> {
    const browser = await this.hooks.launch();
    const slot = new BrowserSlot(browser);
    browser.on('disconnected', () => {
      slot.gone = true;
      // Still listed: nobody closed it on purpose.
      if (this.forget(slot)) this.counters.browsersLost++;
    });
    this.browsers.push(slot);
    this.counters.browsersLaunched++;
    return slot;
  }

  private async release(
    slot: ContextSlot,
    page: Page | undefined,
    keep: boolean,
    abandoned = false,
  ): Promise<void> {
    slot.active--;
    slot.owner.active--;
    slot.lastUsed = Date.now();
    if (page && keep && !slot.retiring && !slot.owner.gone && !slot.owner.retiring) {
      this.keep(slot, page);
    } else if (page && !slot.owner.gone) {
      const closing = withDeadline(page.close(), abandoned ? CLOSE_GRACE_MS : OPERATION_MS, 'closing a page');
      await closing.catch(() => {
        slot.retiring = true;
        if (!abandoned) return;
        // Its renderer may go on for ever: the browser goes, and its other pages run again.
        slot.owner.retiring = true;
        this.hooks.kill(slot.owner.browser);
      });
    }
    if (slot.retiring && slot.active === 0) await this.closeContext(slot);
    if (slot.owner.retiring && slot.owner.active === 0) await this.closeBrowser(slot.owner);
  }

  /**
   * A new tab costs a renderer process (measured: about 40% of a small page's CPU; see
   * docs/decisions.md, "Rendering"), so a clean one is kept for its context's next page. Left
   * unused for PARK_AFTER_MS, it is parked on about:blank, where the last page's scripts and
   * timers stop.
   */
  private keep(slot: ContextSlot, page: Page): void {
    const tab: IdleTab = { page };
    tab.parking = setTimeout(() => this.park(slot, tab), PARK_AFTER_MS).unref();
    slot.idle.push(tab);
  }

  private park(slot: ContextSlot, tab: IdleTab): void {
    const index = slot.idle.indexOf(tab);
    if (index < 0) return;
    slot.idle.splice(index, 1);
    const { page } = tab;
    // Back behind the tabs that still show a page: those are the cheaper ones to navigate on from.
    const parking: Promise<void> = withDeadline(
      page.goto('about:blank'),
      OPERATION_MS,
      'parking a page',
    ).then(
      () => {
        slot.parking.delete(parking);
        if (slot.owner.contexts.includes(slot) && !slot.retiring) slot.idle.unshift({ page });
        else void page.close().catch(() => undefined);
      },
      () => {
        slot.parking.delete(parking);
        // A tab that would not leave its page may be busy for good: as an abandoned one.
        void withDeadline(page.close(), CLOSE_GRACE_MS, 'closing a page').catch(() => {
          if (!slot.owner.gone) this.hooks.kill(slot.owner.browser);
        });
      },
    );
    slot.parking.add(parking);
  }

  private async closeContext(slot: ContextSlot): Promise<void> {
    const index = slot.owner.contexts.indexOf(slot);
    if (index < 0) return;
    slot.owner.contexts.splice(index, 1);
    for (const tab of slot.idle) clearTimeout(tab.parking);
    if (slot.owner.gone) return;
    // A context that will not close leaves its browser suspect: replace the browser too.
    await withDeadline(slot.context.close(), OPERATION_MS, 'closing a context').catch(
      () => (slot.owner.retiring = true),
    );
  }

  private async closeBrowser(slot: BrowserSlot): Promise<void> {
    if (!this.forget(slot)) return;
    if (!this.closed) this.counters.browsersRecycled++;
    // Playwright kills the process if it does not exit in time.
    await withDeadline(slot.browser.close(), OPERATION_MS, 'closing the browser').catch(() => undefined);
  }

  private forget(slot: BrowserSlot): boolean {
    const index = this.browsers.indexOf(slot);
    if (index >= 0) this.browsers.splice(index, 1);
    return index >= 0;
  }
}
