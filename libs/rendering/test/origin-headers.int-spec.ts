import { SCRAPE_DEFAULTS, type ScrapeOptions } from '@app/queue-contracts';
import type { Rendering } from '@app/rendering';
import { startTwoOrigins, type SeenRequest, type TwoOrigins } from '../../../test/fixtures/two-origins';
import { startTestRendering } from './test-rendering';

// The caller's headers go to the target URL's origin only (docs/api.md, Request options): never to
// another origin the page loads from, nor to where a redirect leads elsewhere; 127.0.0.1 on another
// port is another origin.
const ENGINES = ['http', 'playwright', 'puppeteer'] as const;
const NAME = 'x-customer-token';

let sites: TwoOrigins;
let rendering: Rendering;

beforeAll(async () => {
  sites = await startTwoOrigins();
  rendering = await startTestRendering({ RENDER_IDLE_MS: 300 });
});

afterAll(async () => {
  await rendering?.close();
  await sites?.close();
});

beforeEach(() => sites.reset());

function render(engine: (typeof ENGINES)[number], url: string, token: string) {
  const options: ScrapeOptions = {
    ...SCRAPE_DEFAULTS,
    render: engine === 'http' ? 'http' : 'browser',
    engine: engine === 'http' ? 'playwright' : engine,
    timeout: 15_000,
    block_resources: false,
    formats: ['text'],
    only_main_content: false,
    headers: { 'X-Customer-Token': token },
  };
  return rendering.service.render({ url, index: 0, options, isolationKey: 'account-origin-headers' });
}

const carrying = (requests: readonly SeenRequest[], token: string) =>
  requests.filter((r) => r.headers[NAME] === token).map((r) => r.path.split('?')[0]);

describe.each(ENGINES)("the caller's headers stay with the target's origin (%s)", (engine) => {
  it('reach the document and its same-origin requests, and none of the other origin', async () => {
    const token = `tok-${engine}-page`;
    const page = await render(engine, `${sites.target}/page`, token);
    expect(page.error).toBeUndefined();
    expect(page.text).toContain('twoOriginsPage');
    const loaded =
      engine === 'http' ? ['/page'] : ['/page', '/pixel.gif', '/script.js', '/style.css', '/fetch'];
    expect(new Set(carrying(sites.seen('target'), token))).toEqual(new Set(loaded));
    expect(sites.seen('target').filter((r) => r.headers[NAME] !== token)).toEqual([]);
    if (engine !== 'http') {
      // The page did load from the other origin, without them.
      const other = new Set(sites.seen('other').map((r) => r.path));
      expect(other).toEqual(new Set(['/pixel.gif', '/script.js', '/style.css', '/fetch']));
    }
    expect(sites.seen('other').filter((r) => r.headers[NAME] !== undefined)).toEqual([]);
  });

  it('are dropped by a redirect to another origin, and kept by one within the origin', async () => {
    const token = `tok-${engine}-redirect`;
    const away = await render(engine, `${sites.target}/redirect`, token);
    expect(away.final_url).toBe(`${sites.other}/landing`);
    expect(away.text).toContain('twoOriginsLanding');
    expect(carrying(sites.seen('target'), token)).toEqual(['/redirect']);
    expect(sites.seen('other').map((r) => r.path)).toContain('/landing');
    expect(sites.seen('other').filter((r) => r.headers[NAME] !== undefined)).toEqual([]);

    sites.reset();
    const home = await render(engine, `${sites.target}/redirect-home`, token);
    expect(home.final_url).toBe(`${sites.target}/page`);
    expect(carrying(sites.seen('target'), token).slice(0, 2)).toEqual(['/redirect-home', '/page']);
    expect(sites.seen('other').filter((r) => r.headers[NAME] !== undefined)).toEqual([]);
  });
});

it('leave a reused tab with the page that had them', async () => {
  const token = 'tok-reuse';
  await render('playwright', `${sites.target}/page`, token);
  sites.reset();
  const tabs = rendering.engines.playwright.stats().tabsOpened;
  const options: ScrapeOptions = {
    ...SCRAPE_DEFAULTS,
    render: 'browser',
    block_resources: false,
    timeout: 15_000,
  };
  const next = await rendering.service.render({
    url: `${sites.target}/page`,
    index: 0,
    options,
    isolationKey: 'account-origin-headers',
  });
  expect(next.error).toBeUndefined();
  // The same tab, without them.
  expect(rendering.engines.playwright.stats().tabsOpened).toBe(tabs);
  expect(sites.seen('target').length).toBeGreaterThanOrEqual(5);
  expect(sites.seen('target').filter((r) => r.headers[NAME] !== undefined)).toEqual([]);
});
