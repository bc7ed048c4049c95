import { SCRAPE_DEFAULTS, type PageAction, type ScrapeOptions } from '@app/queue-contracts';
import type { Rendering } from '@app/rendering';
import { ACTION_MARKERS } from '../../../test/fixtures/site/action-pages';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { startTestRendering } from './test-rendering';

// Every page action through both browser engines, against pages that react to them.
const BROWSERS = ['playwright', 'puppeteer'] as const;

let site: FixtureSite;
let rendering: Rendering;

beforeAll(async () => {
  site = await startFixtureSite();
  rendering = await startTestRendering({ ACTIONS_MAX_SCREENSHOT_BYTES: 2_000_000 });
});

afterAll(async () => {
  await rendering?.close();
  await site?.close();
});

function render(
  engine: (typeof BROWSERS)[number],
  path: string,
  actions: PageAction[],
  extra: Partial<ScrapeOptions> = {},
) {
  return rendering.service.render({
    url: site.origin + path,
    index: 0,
    // render: auto: actions alone take the browser.
    options: { ...SCRAPE_DEFAULTS, engine, timeout: 20_000, actions, ...extra },
    isolationKey: 'account-actions',
  });
}

/** A PNG's size from its IHDR chunk. */
function pngSize(base64: string): { width: number; height: number } {
  const png = Buffer.from(base64, 'base64');
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe.each(BROWSERS)('page actions: %s', (engine) => {
  it('clicks with a real input event and reads what the click revealed', async () => {
    const page = await render(engine, '/actions/reveal', [{ type: 'click', selector: '#more' }]);
    expect(page.error).toBeUndefined();
    expect(page.metadata.engine).toBe(engine);
    expect(page.markdown).toContain(ACTION_MARKERS.trusted);
    expect(page.markdown).toContain(`${ACTION_MARKERS.revealed}7`);
    expect(page.actions).toEqual({ screenshots: [], javascript_returns: [], scrapes: [] });
  });

  it('clicks every match with all: true', async () => {
    const page = await render(engine, '/actions/reveal', [{ type: 'click', selector: '.tag', all: true }]);
    expect(page.error).toBeUndefined();
    for (const n of [1, 2, 3]) expect(page.markdown).toContain(ACTION_MARKERS.tag(n));
  });

  it('types as key events, presses Enter, waits', async () => {
    const page = await render(engine, '/actions/echo', [
      { type: 'write', selector: '#q', text: 'hello world' },
      { type: 'press', key: 'Enter' },
      { type: 'wait', milliseconds: 50 },
      { type: 'wait', selector: '#submitted' },
    ]);
    expect(page.error).toBeUndefined();
    expect(page.markdown).toContain('echo:hello world');
    expect(page.markdown).toContain('keydowns:12');
    expect(page.markdown).toContain('submitted:hello world');
  });

  it('scrolls an infinite feed, with snapshots on the way', async () => {
    const page = await render(engine, '/actions/feed', [
      { type: 'wait', selector: '#rows div' },
      { type: 'scroll', direction: 'down', amount: 'bottom' },
      { type: 'scrape' },
      { type: 'scroll', direction: 'down', amount: 'bottom' },
      { type: 'execute_javascript', script: 'return scrollY' },
      { type: 'scroll', direction: 'up', amount: 300 },
      { type: 'execute_javascript', script: 'return scrollY' },
    ]);
    expect(page.error).toBeUndefined();
    const [snapshot] = page.actions!.scrapes;
    expect(snapshot.url).toBe(`${site.origin}/actions/feed`);
    expect(snapshot.html).toContain(ACTION_MARKERS.row(20));
    expect(snapshot.html).not.toContain(ACTION_MARKERS.row(21));
    expect(page.markdown).toContain(ACTION_MARKERS.row(30));
    const [before, after] = page.actions!.javascript_returns;
    expect(before.type).toBe('number');
    expect((before.value as number) - (after.value as number)).toBe(300);
  });

  it('takes viewport and full-page screenshots as base64 PNGs', async () => {
    const page = await render(engine, '/actions/feed', [
      { type: 'wait', selector: '#rows div' },
      { type: 'screenshot' },
      { type: 'screenshot', full_page: true },
    ]);
    expect(page.error).toBeUndefined();
    const [viewport, full] = page.actions!.screenshots.map(pngSize);
    expect(viewport.height).toBeGreaterThan(0);
    // Ten rows of 200 px: taller than the viewport.
    expect(full.height).toBeGreaterThanOrEqual(2000);
    expect(full.height).toBeGreaterThan(viewport.height);
  });

  it('returns what scripts return, JSON-typed', async () => {
    const page = await render(engine, '/actions/reveal', [
      { type: 'execute_javascript', script: 'return { title: document.title, n: [1, 2] }' },
      { type: 'execute_javascript', script: 'await new Promise((r) => setTimeout(r, 10)); return "done"' },
      { type: 'execute_javascript', script: 'document.body.append("scriptWasHere")' },
    ]);
    expect(page.error).toBeUndefined();
    expect(page.actions!.javascript_returns).toEqual([
      { type: 'object', value: { title: 'Reveal page', n: [1, 2] } },
      { type: 'string', value: 'done' },
      { type: 'null', value: null },
    ]);
    expect(page.markdown).toContain('scriptWasHere');
  });

  it('fails the page with ACTION_FAILED when a script throws, keeping the screenshots', async () => {
    const page = await render(engine, '/actions/throws', [
      { type: 'screenshot' },
      { type: 'execute_javascript', script: 'return explode()' },
      { type: 'screenshot' },
    ]);
    expect(page.error?.code).toBe('ACTION_FAILED');
    expect(page.error?.message).toMatch(/^actions\[1\] \(execute_javascript\) failed: .*fixtureBoom/);
    expect(page.actions!.screenshots).toHaveLength(1);
    expect(page.markdown).toBeUndefined();
  });

  it('fails the page with ACTION_FAILED when a selector never appears', async () => {
    const page = await render(engine, '/actions/reveal', [{ type: 'wait', selector: '#never' }], {
      timeout: 2000,
    });
    expect(page.error?.code).toBe('ACTION_FAILED');
    expect(page.error?.message).toMatch(/^actions\[0\] \(wait\) failed: .*#never/);
  });

  it('finds selectors alike for wait, click and wait_for: through open shadow roots', async () => {
    const page = await render(
      engine,
      '/actions/shadow',
      [
        { type: 'wait', selector: '#inner' },
        { type: 'click', selector: '#inner' },
      ],
      { wait_for: '#inner' },
    );
    expect(page.error).toBeUndefined();
    expect(page.markdown).toContain(ACTION_MARKERS.shadowClicked);
  });

  it.each([
    [
      { type: 'wait', selector: '#sealed' },
      /^actions\[0\] \(wait\) failed: the selector "#sealed" did not appear/,
    ],
    [
      { type: 'click', selector: '#sealed' },
      /^actions\[0\] \(click\) failed: the selector "#sealed" did not appear/,
    ],
  ] as [PageAction, RegExp][])('finds nothing inside a closed shadow root: %j', async (action, message) => {
    const page = await render(engine, '/actions/shadow', [action], { timeout: 1500 });
    expect(page.error?.code).toBe('ACTION_FAILED');
    expect(page.error?.message).toMatch(message);
  });

  it('clicks on a mobile page too', async () => {
    const page = await render(engine, '/actions/reveal', [{ type: 'click', selector: '#more' }], {
      mobile: true,
    });
    expect(page.error).toBeUndefined();
    expect(page.markdown).toContain(`${ACTION_MARKERS.revealed}7`);
  });

  it('fails a script whose value is past the return cap, measured in the page', async () => {
    const page = await render(engine, '/actions/reveal', [
      { type: 'execute_javascript', script: 'return "x".repeat(2 * 1024 * 1024)' },
    ]);
    expect(page.error?.code).toBe('ACTION_FAILED');
    expect(page.error?.message).toContain('characters of JSON');
  });

  it('stops an endless script at the page timeout', async () => {
    const started = Date.now();
    const page = await render(
      engine,
      '/actions/reveal',
      [{ type: 'execute_javascript', script: 'for (;;) {}' }],
      {
        timeout: 2000,
      },
    );
    expect(page.error?.code).toBe('ACTION_FAILED');
    expect(page.error?.message).toContain('timeout of 2000 ms');
    expect(Date.now() - started).toBeLessThan(8000);
  });
});

it('fails the page once the action screenshots pass ACTIONS_MAX_SCREENSHOT_BYTES', async () => {
  const small = await startTestRendering({ ACTIONS_MAX_SCREENSHOT_BYTES: 100 });
  try {
    const page = await small.service.render({
      url: `${site.origin}/actions/reveal`,
      index: 0,
      options: { ...SCRAPE_DEFAULTS, timeout: 20_000, actions: [{ type: 'scrape' }, { type: 'screenshot' }] },
      isolationKey: 'account-actions',
    });
    expect(page.error?.code).toBe('ACTION_FAILED');
    expect(page.error?.message).toBe(
      'actions[1] (screenshot) failed: the screenshots add up to more than 100 bytes',
    );
    expect(page.actions?.scrapes).toHaveLength(1);
    expect(page.actions?.screenshots).toEqual([]);
  } finally {
    await small.close();
  }
});
