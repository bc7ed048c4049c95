import { SCRAPE_DEFAULTS, type ScrapeOptions } from '@app/queue-contracts';
import type { Rendering } from '@app/rendering';
import { articleFor } from '../../../test/fixtures/site/articles';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { lateLatencyMs } from '../../../test/fixtures/site/late-pages';
import { READINESS_MARKERS, pollTick } from '../../../test/fixtures/site/readiness-pages';
import { startTestRendering } from './test-rendering';

// The readiness rule at the default RENDER_IDLE_MS and RENDER_SETTLE_MAX_MS, through both browser
// engines: late content is waited for, pages that never go quiet end at the cap with what they hold.
const BROWSERS = ['playwright', 'puppeteer'] as const;

let site: FixtureSite;
let rendering: Rendering;

beforeAll(async () => {
  site = await startFixtureSite();
  rendering = await startTestRendering();
});

afterAll(async () => {
  await rendering?.close();
  await site?.close();
});

function render(engine: (typeof BROWSERS)[number], path: string, extra: Partial<ScrapeOptions> = {}) {
  return rendering.service.render({
    url: site.origin + path,
    index: 0,
    options: { ...SCRAPE_DEFAULTS, render: 'browser', engine, timeout: 20_000, ...extra },
    isolationKey: 'account-readiness',
  });
}

const title = (id: string) => articleFor(id)!.title;

describe.each(BROWSERS)('readiness rule: %s', (engine) => {
  // Answered after about 400, 800 and 1000 ms, each asked for 300 ms after load.
  it.each(['1', '2', '5'])('waits for late content (/late/article/%s)', async (id) => {
    expect(lateLatencyMs(Number(id))).toBeGreaterThan(300);
    const page = await render(engine, `/late/article/${id}`);
    expect(page.error).toBeUndefined();
    expect(page.metadata.title).toBe(title(id));
    expect(page.markdown).toContain(`# ${title(id)}`);
  });

  it('reads a static page', async () => {
    const page = await render(engine, '/static/article/7');
    expect(page.error).toBeUndefined();
    expect(page.markdown).toContain(`# ${title('7')}`);
  });

  it('ends a polling page at the cap, with the polls it answered', async () => {
    const page = await render(engine, '/ready/polling');
    expect(page.error).toBeUndefined();
    expect(page.markdown).toContain(READINESS_MARKERS.polling);
    // The gaps between polls are not taken for the end.
    expect(page.markdown).toContain(pollTick(2));
  });

  it.each([
    ['/ready/scroll', READINESS_MARKERS.scroll],
    ['/ready/mutating', READINESS_MARKERS.mutating],
  ])('ends %s, which never goes quiet, at the cap', async (path, marker) => {
    const page = await render(engine, path);
    expect(page.error).toBeUndefined();
    expect(page.markdown).toContain(marker);
  });

  it('keeps working on a page that replaces the globals it relies on', async () => {
    const page = await render(engine, '/ready/hostile');
    expect(page.error).toBeUndefined();
    expect(page.markdown).toContain(READINESS_MARKERS.hostile);
    expect(page.markdown).toContain(READINESS_MARKERS.hostileLate);
  });

  it('replaces no function a page can tell from the native', async () => {
    const page = await render(engine, '/ready/natives');
    expect(page.markdown).toContain(READINESS_MARKERS.natives);
  });

  it('ends at a wait_for selector once it is present', async () => {
    const page = await render(engine, '/late/article/5', { wait_for: '#root[data-rendered]' });
    expect(page.error).toBeUndefined();
    expect(page.markdown).toContain(`# ${title('5')}`);
  });

  it('fails a wait_for selector that never matches with TIMEOUT, naming it', async () => {
    const page = await render(engine, '/late/article/1', { wait_for: '#never-there', timeout: 3000 });
    expect(page.error?.code).toBe('TIMEOUT');
    expect(page.error?.message).toContain('#never-there');
    // What the page held is still returned.
    expect(page.markdown).toContain(`# ${title('1')}`);
  });

  it('captures wait_for milliseconds after load without waiting for quiet', async () => {
    // The polling page never goes quiet: only the milliseconds end the wait.
    const page = await render(engine, '/ready/polling', { wait_for: 0 });
    expect(page.error).toBeUndefined();
    expect(page.markdown).toContain(READINESS_MARKERS.polling);
    const late = await render(engine, '/late/article/1', { wait_for: 3000 });
    expect(late.markdown).toContain(`# ${title('1')}`);
  });
});
