import { chromium, type Page } from 'playwright-core';
import { SCRAPE_DEFAULTS } from '@app/queue-contracts';
import { chromiumArgs, resolveChromiumPath, type Rendering } from '@app/rendering';
import { BrowserPool } from '../src/browser-pool';
import { StaleTabError } from '../src/page-errors';
import { articleFor } from '../../../test/fixtures/site/articles';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { browserProcesses, killBrowsers } from './browser-processes';
import { startEchoSite, type EchoSite } from './echo-site';
import { startTestRendering } from './test-rendering';

// The Playwright pool with small limits, so that recycling shows within a few pages.
let site: FixtureSite;
let echo: EchoSite;
let rendering: Rendering;

beforeAll(async () => {
  [site, echo] = await Promise.all([startFixtureSite(), startEchoSite()]);
  rendering = await startTestRendering({
    RENDER_CONCURRENCY: 2,
    BROWSER_POOL_SIZE: 1,
    CONTEXTS_PER_BROWSER: 2,
    CONTEXT_MAX_PAGES: 2,
    BROWSER_MAX_PAGES: 6,
    RENDER_IDLE_MS: 200,
  });
});

afterAll(async () => {
  await rendering?.close();
  await Promise.all([site?.close(), echo?.close()]);
});

const stats = () => rendering.engines.playwright.stats();

function render(path: string, isolationKey: string, timeout = 10_000) {
  return renderOn(rendering, path, isolationKey, timeout);
}

function renderOn(on: Rendering, path: string, isolationKey: string, timeout = 10_000) {
  return on.service.render({
    url: path.startsWith('/') ? site.origin + path : path,
    options: { ...SCRAPE_DEFAULTS, render: 'browser', engine: 'playwright', timeout },
    isolationKey,
  });
}

describe('Playwright browser pool', () => {
  it('shares a context between pages of one key, replaces it after CONTEXT_MAX_PAGES, never shares across keys', async () => {
    const before = stats();
    await render('/static/article/1', 'pool-a');
    await render('/static/article/2', 'pool-a');
    expect(stats().contextsCreated - before.contextsCreated).toBe(1);
    await render('/static/article/3', 'pool-a');
    expect(stats().contextsCreated - before.contextsCreated).toBe(2);
    await render('/static/article/4', 'pool-b');
    expect(stats().contextsCreated - before.contextsCreated).toBe(3);
    // A third key evicts the idle context used longest ago: never more than CONTEXTS_PER_BROWSER.
    await render('/static/article/5', 'pool-c');
    expect(stats().contexts).toBeLessThanOrEqual(2);
  });

  it('replaces the browser after BROWSER_MAX_PAGES pages', async () => {
    const before = stats();
    for (let i = 0; i < 6; i++) await render(`/static/article/${10 + i}`, 'pool-a');
    expect(stats().browsersLaunched - before.browsersLaunched).toBeGreaterThanOrEqual(1);
    expect(stats().browsersRecycled - before.browsersRecycled).toBeGreaterThanOrEqual(1);
    expect(stats().browsersLost - before.browsersLost).toBe(0);
    expect(stats().browsers).toBe(1);
  });

  it('counts a browser that went away by itself as lost, and its page as retried', async () => {
    await render('/static/article/22', 'pool-e');
    const before = stats();
    const pending = render('/slow?ms=3000', 'pool-e', 20_000);
    // Kill once the page is open (the /slow answer takes 3 s), so it is the one retried.
    while (stats().pagesInFlight === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stats()).toMatchObject({ browsersInUse: 1, contextsInUse: 1, pagesInFlight: 1 });
    // A browser the pool recycled, or closed when idle (RENDER_IDLE_MS) just before this page, may
    // not have exited yet: wait for it, so that the kill reaches only the live one.
    while (browserProcesses('playwright').length > stats().browsers) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(killBrowsers('playwright')).toBe(1);
    expect((await pending).error).toBeUndefined();
    const after = stats();
    expect(after.browsersLost - before.browsersLost).toBe(1);
    expect(after.browsersRecycled - before.browsersRecycled).toBe(0);
    expect(after.retries - before.retries).toBe(1);
    expect(after).toMatchObject({ browsersInUse: 0, contextsInUse: 0, pagesInFlight: 0 });
  });

  it('renders at most RENDER_CONCURRENCY pages at once; the rest wait their turn', async () => {
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, stats().pagesInFlight)), 10);
    const started = Date.now();
    const pages = await Promise.all(
      ['pool-a', 'pool-b', 'pool-a', 'pool-c'].map((key) => render('/slow?ms=600', key)),
    );
    clearInterval(sampler);
    expect(pages.map((p) => p.error)).toEqual([undefined, undefined, undefined, undefined]);
    expect(most).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1200);
    expect(stats().pagesInFlight).toBe(0);
  });

  it('retires the context of a page whose scripts never yield', async () => {
    const before = stats();
    const spinning = await render(`${echo.origin}/spin`, 'pool-d', 5000);
    expect(spinning.error?.code).toBe('TIMEOUT');
    const next = await render('/static/article/21', 'pool-d');
    expect(next.error).toBeUndefined();
    // Without the retirement the second page would have shared the first one's context.
    expect(stats().contextsCreated - before.contextsCreated).toBe(2);
  });
});

describe('Playwright tab reuse', () => {
  // The default limits: a context serves many pages.
  let reuse: Rendering;
  beforeAll(async () => {
    reuse = await startTestRendering({ RENDER_CONCURRENCY: 1, RENDER_IDLE_MS: 200 });
  });
  afterAll(() => reuse?.close());

  it('hands a clean tab to the next page of its context, and parks a tab left idle on about:blank', async () => {
    await renderOn(reuse, '/static/article/30', 'pool-f');
    const before = reuse.engines.playwright.stats();
    const ticker = await renderOn(reuse, `${echo.origin}/ticker?id=kept`, 'pool-f');
    expect(ticker.markdown).toContain('tickerPageContent');
    // Its context's first page ended clean: its tab is reused, no new one opened.
    expect(reuse.engines.playwright.stats().tabsOpened - before.tabsOpened).toBe(0);
    // Left idle, the tab stops showing the ticker within PARK_AFTER_MS (1 s): its timer stops.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const parked = echo.ticks('kept');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(parked).toBeGreaterThan(0);
    expect(echo.ticks('kept')).toBe(parked);
    // The parked tab still serves the next page.
    expect((await renderOn(reuse, '/static/article/31', 'pool-f')).error).toBeUndefined();
    expect(reuse.engines.playwright.stats().tabsOpened - before.tabsOpened).toBe(0);
  });

  it('gives a page that comes while its tab is being parked that tab, not a new one', async () => {
    await renderOn(reuse, '/static/article/32', 'pool-g');
    const before = reuse.engines.playwright.stats();
    // Parking starts PARK_AFTER_MS (1 s) after a page and takes one navigation to about:blank: the
    // next page comes at steps across that window, so some come while the tab is on its way.
    for (let wait = 980; wait <= 1_100; wait += 8) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      expect((await renderOn(reuse, `/static/article/${wait}`, 'pool-g')).error).toBeUndefined();
    }
    expect(reuse.engines.playwright.stats().tabsOpened - before.tabsOpened).toBe(0);
  }, 60_000);

  it('closes the tab of a page that navigated by itself, and loads the next page on a new tab', async () => {
    await renderOn(reuse, '/static/article/40', 'pool-h');
    const before = reuse.engines.playwright.stats();
    // It navigates again the moment each of its documents is parsed: kept, it would do so under
    // the next page's load (Playwright: "interrupted by another navigation"), or be read instead.
    // Read between two of its navigations, or (1 in 4 here, more on a loaded machine) not at all.
    const looping = await renderOn(reuse, '/hostile/reload-loop', 'pool-h', 3000);
    expect(looping.markdown ?? looping.error?.message).toMatch(/Reload loop|kept navigating away/);
    expect(reuse.engines.playwright.stats().tabsOpened - before.tabsOpened).toBe(0);
    const next = await renderOn(reuse, '/static/article/41', 'pool-h');
    expect(next.error).toBeUndefined();
    expect(next.markdown).toContain(articleFor('41')!.title);
    expect(reuse.engines.playwright.stats().tabsOpened - before.tabsOpened).toBe(1);
  });
});

describe('BrowserPool', () => {
  let pool: BrowserPool;
  beforeAll(() => {
    const executablePath = resolveChromiumPath(process.env.CHROMIUM_PATH);
    pool = new BrowserPool(
      {
        browsers: 1,
        contextsPerBrowser: 2,
        contextMaxPages: 10,
        browserMaxPages: 10,
        concurrency: 1,
        browserMaxMemoryMb: 1024,
      },
      {
        launch: () => chromium.launch({ executablePath, args: chromiumArgs(undefined, false) }),
        newContext: (browser) => browser.newContext(),
        kill: (browser) => void browser.close(),
      },
    );
  });
  afterAll(() => pool?.close());

  it("runs a page once more on a new tab when the kept tab's last page navigated under it", async () => {
    const profile = { key: 'stale', mobile: false };
    const kept = await pool.withPage(profile, async (lease) => {
      lease.keepPage();
      return lease.page;
    });
    const pages: Page[] = [];
    const result = await pool.withPage(profile, async ({ page }) => {
      pages.push(page);
      if (pages.length === 1) throw new StaleTabError(new Error('interrupted'));
      return 'second try';
    });
    expect(result).toBe('second try');
    expect(pages[0]).toBe(kept);
    expect(pages[1]).not.toBe(kept);
    expect(kept.isClosed()).toBe(true);
    expect(pool.stats().retries).toBe(1);
  });

  it('throws a second StaleTabError rather than trying a third time', async () => {
    let tries = 0;
    const failing = pool.withPage({ key: 'stale-twice', mobile: false }, async () => {
      tries++;
      throw new StaleTabError(new Error('interrupted'));
    });
    await expect(failing).rejects.toBeInstanceOf(StaleTabError);
    expect(tries).toBe(2);
  });
});

describe('Puppeteer engine pool figures', () => {
  const puppeteerStats = () => rendering.engines.puppeteer.stats();

  it('counts the cluster replaced after BROWSER_MAX_PAGES pages as a recycled browser', async () => {
    const before = puppeteerStats();
    // Six pages fill a cluster (BROWSER_MAX_PAGES 6 above) whatever this engine did before; the
    // seventh starts a new one and the old closes once idle.
    for (let i = 0; i < 7; i++) {
      const page = await rendering.service.render({
        url: `${site.origin}/static/article/${i + 1}`,
        options: { ...SCRAPE_DEFAULTS, render: 'browser', engine: 'puppeteer', timeout: 10_000 },
        isolationKey: 'a',
      });
      expect(page.error).toBeUndefined();
    }
    while (puppeteerStats().browsersRecycled === before.browsersRecycled) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const after = puppeteerStats();
    expect(after.browsersRecycled - before.browsersRecycled).toBe(1);
    expect(after.browsersLaunched - before.browsersLaunched).toBeGreaterThanOrEqual(1);
    expect(after.contextsCreated - before.contextsCreated).toBe(7);
    expect(after).toMatchObject({ browsers: 1, browsersInUse: 0, pagesInFlight: 0, browsersLost: 0 });
  });
});
