import { SCRAPE_DEFAULTS, type PageErrorCode, type ScrapeOptions } from '@app/queue-contracts';
import type { Rendering } from '@app/rendering';
import { READ_GRACE_MS } from '../src/engines/browser-render';
import { browserProcesses, busyChromium, settledBrowserCount } from './browser-processes';
import { startHostileBrowserSite, type HostileBrowserSite } from './hostile-browser-site';
import { startTestRendering } from './test-rendering';

// Pages that turn the browser against its host, through both browser engines: each gets a named
// page result within its timeout and a small margin, leaves no renderer running, and the next page
// renders.
const BROWSERS = ['playwright', 'puppeteer'] as const;
const TIMEOUT_MS = 3000;
/** A generous margin past READ_GRACE_MS for a busy machine. */
const MARGIN_MS = 4000;

let site: HostileBrowserSite;
let rendering: Rendering;

beforeAll(async () => {
  site = await startHostileBrowserSite();
  rendering = await startTestRendering({ RENDER_IDLE_MS: 200, BROWSER_MAX_MEMORY_MB: 1280 });
});

afterAll(async () => {
  await rendering?.close();
  await site?.close();
});

function render(
  engine: (typeof BROWSERS)[number],
  path: string,
  extra: Partial<ScrapeOptions> = {},
  on = rendering,
) {
  return on.service.render({
    url: site.origin + path,
    options: { ...SCRAPE_DEFAULTS, render: 'browser', engine, timeout: TIMEOUT_MS, ...extra },
    isolationKey: 'account-bounds',
  });
}

type Outcome = PageErrorCode | 'content';

/** Each page and the outcomes it may have: a result, never a hang or a thrown error. */
const HOSTILE: [string, string, Outcome[], Partial<ScrapeOptions>?][] = [
  // Expanding 10^10 instances takes the renderer's main thread for good, and its memory.
  ['an SVG <use> bomb', '/svg-bomb?levels=10&fanout=10', ['TIMEOUT', 'RENDER_CRASH']],
  ['a busy loop that starts again', '/script/busy-loop', ['TIMEOUT']],
  ['an alert loop', '/script/alert-loop', ['content', 'TIMEOUT']],
  ['a popup loop', '/script/popup-loop', ['content']],
  ['endless animation frames', '/script/animation-frames', ['content']],
  // A 12 MB document built by a script (the bytes on the wire are few): the read-back is capped.
  ['a DOM past the HTML cap', '/script/huge-dom?mb=12', ['TOO_LARGE'], { timeout: 10_000 }],
  [
    'a screenshot of a DOM past the HTML cap',
    '/script/huge-dom?mb=12',
    ['TOO_LARGE'],
    { timeout: 10_000, formats: ['markdown', 'screenshot'] },
  ],
];

describe.each(BROWSERS)('browser bounds: %s', (engine) => {
  it.each(HOSTILE)(
    '%s gets a result, leaves nothing running, and the next page renders',
    async (_, path, outcomes, extra = {}) => {
      const started = Date.now();
      const page = await render(engine, path, extra);
      const took = Date.now() - started;
      expect(outcomes).toContain(page.error?.code ?? 'content');
      if (page.error) expect(page.error.message).not.toBe('');
      expect(took).toBeLessThan((extra.timeout ?? TIMEOUT_MS) + READ_GRACE_MS + MARGIN_MS);
      // An abandoned tab has CLOSE_GRACE_MS to go, a kept one is parked after a second.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(await busyChromium(engine)).toEqual([]);
      const next = await render(engine, '/plain', { timeout: 10_000 });
      expect(next.error).toBeUndefined();
      expect(next.markdown).toContain('plainPageContent');
    },
  );

  it('fails a page whose renderer dies with RENDER_CRASH, and the next page renders', async () => {
    const pending = render(engine, '/svg-bomb?levels=10&fanout=10', { timeout: 10_000 });
    // The page's renderer is the one busy expanding the bomb.
    let renderers: { pid: number }[] = [];
    while (renderers.length === 0) {
      renderers = (await busyChromium(engine, 500)).filter((p) => p.type === 'renderer');
    }
    for (const { pid } of renderers) process.kill(pid, 'SIGKILL');
    const page = await pending;
    expect(page.error?.code).toBe('RENDER_CRASH');
    const next = await render(engine, '/plain');
    expect(next.markdown).toContain('plainPageContent');
  });
});

describe.each(BROWSERS)('browser memory bound: %s', (engine) => {
  it('kills a browser whose page grows its memory past BROWSER_MAX_MEMORY_MB: RENDER_CRASH naming it', async () => {
    const before = browserProcesses(engine).length;
    // Its own rendering, so that only this engine's browser counts against the bound.
    const bounded = await startTestRendering({ RENDER_IDLE_MS: 200, BROWSER_MAX_MEMORY_MB: 900 });
    try {
      const page = await render(engine, '/script/memory-growth', { timeout: 20_000 }, bounded);
      expect(page.error?.code).toBe('RENDER_CRASH');
      expect(page.error?.message).toContain('BROWSER_MAX_MEMORY_MB');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await busyChromium(engine)).toEqual([]);
      const next = await render(engine, '/plain', { timeout: 10_000 }, bounded);
      expect(next.markdown).toContain('plainPageContent');
    } finally {
      await bounded.close();
    }
    // Closing leaves none of its browsers, those launched after a kill included.
    expect(await settledBrowserCount(engine, before)).toBe(before);
  });
});

describe.each(BROWSERS)('shutdown under a hostile page: %s', (engine) => {
  it('closes while an SVG bomb renders, within seconds, leaving none of its browsers', async () => {
    const before = browserProcesses(engine).length;
    const closing = await startTestRendering({ RENDER_IDLE_MS: 200 });
    const pending = render(engine, '/svg-bomb?levels=10&fanout=10', { timeout: 20_000 }, closing);
    pending.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(browserProcesses(engine).length).toBe(before + 1);
    const started = Date.now();
    await closing.close();
    // Bounded by the engines' own deadlines (10 s to close a browser), not by the page.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await settledBrowserCount(engine, before)).toBe(before);
    await pending.catch(() => undefined);
  });
});
