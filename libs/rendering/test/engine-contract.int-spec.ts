import { once } from 'node:events';
import { createServer } from 'node:https';
import { type AddressInfo, type Server } from 'node:net';
import { SCRAPE_DEFAULTS, type PageResult, type ScrapeOptions } from '@app/queue-contracts';
import type { Rendering } from '@app/rendering';
import { makeTestCertificate } from '../../../test/fixtures/https';
import { BOILERPLATE_MARKERS, LEAK_MARKERS, articleFor } from '../../../test/fixtures/site/articles';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { LOCAL_SUBRESOURCES } from '../../../test/fixtures/site/resources';
import { refusedOrigins } from '../../../test/fixtures/site/routing';
import { freePort } from '../../../test/support/processes';
import { browserProcesses } from './browser-processes';
import { startEchoSite, type EchoSite } from './echo-site';
import { startTestRendering } from './test-rendering';

// One contract, every engine: a page renders to the same result whichever engine took it. http
// runs no JavaScript, so the browser-only behaviours have their own block below.
type EngineUnderTest = 'http' | 'playwright' | 'puppeteer';
const ENGINES: EngineUnderTest[] = ['http', 'playwright', 'puppeteer'];
const BROWSERS = ['playwright', 'puppeteer'] as const;

let site: FixtureSite;
let echo: EchoSite;
let untrusted: { origin: string; server: Server };
let closedPort: number;
let rendering: Rendering;

/** An https server on 127.0.0.1 with a self-signed certificate nobody trusts. */
async function startUntrustedTls() {
  const { key, cert } = makeTestCertificate();
  const server = createServer({ key, cert }, (_req, res) => res.end('<title>never shown</title>'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * Browsers already under this jest process when the file starts (jest --runInBand runs every file
 * in one process: a browser another file's engine relaunched after a kill can outlive it). The kill
 * test kills only browsers this file's engines launched.
 */
const strays = new Set<number>();

beforeAll(async () => {
  for (const pid of [...browserProcesses('playwright'), ...browserProcesses('puppeteer')]) strays.add(pid);
  [site, echo, untrusted, closedPort] = await Promise.all([
    startFixtureSite(),
    startEchoSite(),
    startUntrustedTls(),
    freePort(),
  ]);
  rendering = await startTestRendering({ RENDER_IDLE_MS: 300 });
});

afterAll(async () => {
  await rendering?.close();
  untrusted?.server.close();
  await Promise.all([site?.close(), echo?.close()]);
});

afterEach(() => {
  // Nothing may ever reach the refused spellings of the site.
  expect(site.leakedRequests()).toEqual([]);
});

function optionsFor(engine: EngineUnderTest, extra: Partial<ScrapeOptions> = {}): ScrapeOptions {
  return {
    ...SCRAPE_DEFAULTS,
    render: engine === 'http' ? 'http' : 'browser',
    engine: engine === 'http' ? 'playwright' : engine,
    timeout: 10_000,
    ...extra,
  };
}

function render(
  engine: EngineUnderTest,
  url: string,
  extra: Partial<ScrapeOptions> = {},
  isolationKey = 'account-a',
) {
  const absolute = url.startsWith('/') ? site.origin + url : url;
  return rendering.service.render({
    url: absolute,
    index: 3,
    options: optionsFor(engine, extra),
    isolationKey,
  });
}

describe.each(ENGINES)('engine contract: %s', (engine) => {
  it('turns a server-rendered article into clean markdown with metadata', async () => {
    const page = await render(engine, '/static/article/feature', { formats: ['markdown', 'links', 'text'] });
    const o = site.origin;
    expect(page).toMatchObject({ index: 3, final_url: `${o}/static/article/feature`, status_code: 200 });
    expect(page.error).toBeUndefined();
    expect(page.metadata).toEqual({
      title: 'Field Notes on Urban Beekeeping',
      description: expect.stringContaining('keeping honey bees on city rooftops'),
      author: 'Ada Fixture',
      published_at: '2024-03-14',
      language: 'en',
      canonical_url: `${o}/static/article/feature`,
      site_name: null,
      engine,
      cache_state: 'miss',
      cached_at: null,
    });
    const md = page.markdown!;
    expect(md.startsWith('# Field Notes on Urban Beekeeping\n\n')).toBe(true);
    expect(md).toContain(
      '| Item | Quantity | Approx. cost (EUR) |\n| --- | --- | --- |\n| Hive body with frames | 2 | 180 |',
    );
    expect(md).toContain('```python\ndef brood_trend(inspections):');
    expect(md).toContain('```json\n{\n  "hive": "H1",');
    expect(md).toContain(`[our introduction to pollinators](${o}/static/article/2)`);
    expect(md).toContain(`![Two hives on a rooftop](${o}/images/rooftop-hive.png)`);
    expect(md).toMatch(/1\. +Ask the building owner\n +- +Written permission/);
    for (const marker of [...Object.values(LEAK_MARKERS), ...Object.values(BOILERPLATE_MARKERS)]) {
      expect(md).not.toContain(marker);
      expect(page.text).not.toContain(marker);
    }
    expect(page.links).toEqual(expect.arrayContaining([`${o}/static/article/2`, `${o}/crawl/`, `${o}/`]));
    expect(new Set(page.links).size).toBe(page.links!.length);
    expect(page.timings.total_ms).toBeGreaterThanOrEqual(page.timings.render_ms);
  });

  it('follows redirects and reports the final URL', async () => {
    const page = await render(engine, '/redirect/chain');
    expect(page).toMatchObject({ final_url: `${site.origin}/redirect/final`, status_code: 200 });
    expect(page.markdown).toContain('redirectFinalContent');
    expect(page.error).toBeUndefined();
  });

  it.each([
    [404, 'HTTP_4XX'],
    [500, 'HTTP_5XX'],
  ])('reports a %i as %s with the status and the content', async (status, code) => {
    const page = await render(engine, `/status/${status}`);
    expect(page.status_code).toBe(status);
    expect(page.error?.code).toBe(code);
    expect(page.markdown).toContain('statusPageContent');
  });

  it('gives up on a page that never finishes loading with TIMEOUT', async () => {
    const started = Date.now();
    const page = await render(engine, '/never-loads', { timeout: 2000 });
    expect(page.error?.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2000 + 4000);
    // A browser still has the part that did arrive.
    if (engine !== 'http') expect(page.markdown).toContain('neverLoadsContent');
  });

  it.each(['/huge?mb=11', '/huge?mb=11&length'])(
    'refuses more than 10 MB of HTML as TOO_LARGE (%s)',
    async (path) => {
      // Without a content-length a browser counts the bytes as it parses them: seconds for 10 MB.
      const page = await render(engine, path, { timeout: 60_000 });
      expect(page.error?.code).toBe('TOO_LARGE');
      expect(page.markdown).toBeUndefined();
    },
  );

  it.each(['/files/image.png', '/files/blob.bin', '/download/file.csv'])(
    'refuses %s as UNSUPPORTED_CONTENT',
    async (path) => {
      const page = await render(engine, path);
      expect(page.error?.code).toBe('UNSUPPORTED_CONTENT');
      expect(page.status_code).toBe(200);
      expect(page.markdown).toBeUndefined();
    },
  );

  it('returns plain text and JSON documents as text', async () => {
    const text = await render(engine, '/files/notes.txt', { formats: ['markdown', 'text'] });
    expect(text.error).toBeUndefined();
    expect(text.text).toBe('Plain text notes.\nSecond line.\n');
    const json = await render(engine, '/files/data.json');
    expect(json.markdown).toBe('```json\n{"fixture":true,"items":[1,2,3]}\n```');
  });

  it.each(['ipv4-127.0.0.2', 'ipv6-loopback', 'localhost-subdomain'] as const)(
    'refuses %s as BLOCKED_ADDRESS, directly, over https, and behind a redirect',
    async (form) => {
      const origin = refusedOrigins(site.port)[form];
      const direct = await render(engine, `${origin}/static/article/1`);
      expect(direct.error?.code).toBe('BLOCKED_ADDRESS');
      expect(direct.status_code).toBeNull();
      const tls = await render(engine, `${origin.replace('http:', 'https:')}/static/article/1`);
      expect(tls.error?.code).toBe('BLOCKED_ADDRESS');
      const redirected = await render(engine, `/redirect/refused/${form}`);
      expect(redirected.error?.code).toBe('BLOCKED_ADDRESS');
      expect(redirected.markdown ?? '').not.toContain('leakedRedirectTarget');
    },
  );

  it('reports DNS, connection and TLS failures by their codes', async () => {
    // The tests' resolver knows no names; nothing listens on the closed port; the certificate is
    // self-signed and trusted by no one.
    expect((await render(engine, 'http://no-such-host.test/')).error?.code).toBe('DNS');
    expect((await render(engine, `http://127.0.0.1:${closedPort}/`)).error?.code).toBe('CONNECT');
    const tls = await render(engine, `${untrusted.origin}/`);
    expect(tls.error?.code).toBe('TLS');
    expect(tls.status_code).toBeNull();
  });

  it("sends the caller's headers and the mobile user agent", async () => {
    const options = { formats: ['text' as const], only_main_content: false };
    const page = await render(engine, `${echo.origin}/echo`, {
      ...options,
      headers: { 'X-Contract': 'c-42' },
    });
    expect(page.text).toContain('x-contract: c-42');
    expect(page.text).not.toMatch(/HeadlessChrome/);
    const mobile = await render(engine, `${echo.origin}/echo`, { ...options, mobile: true });
    expect(mobile.text).toMatch(/user-agent: .*Android.*Mobile/);
  });

  it('keeps only include_tags and drops exclude_tags', async () => {
    const only = await render(engine, '/static/article/feature', {
      include_tags: ['table'],
      formats: ['markdown', 'html'],
    });
    expect(only.markdown).toMatch(/^# Field Notes on Urban Beekeeping\n\nStarter equipment\n\n\| Item/);
    expect(only.markdown).not.toContain('Choosing a site');
    const without = await render(engine, '/static/article/feature', { exclude_tags: ['table', 'pre'] });
    expect(without.markdown).toContain('Choosing a site');
    expect(without.markdown).not.toContain('| Item |');
    expect(without.markdown).not.toContain('```');
  });

  it(
    engine === 'http'
      ? 'returns the empty shell of a client-rendered page (no JavaScript)'
      : 'renders a client-rendered page after its scripts ran',
    async () => {
      const page = await render(engine, '/spa/article/5');
      const title = articleFor('5')!.title;
      if (engine === 'http') {
        expect(page.markdown).toBe('# Fixture News');
      } else {
        expect(page.metadata.title).toBe(title);
        const serverRendered = await render('http', '/static/article/5');
        // The same article, but its relative links resolve against the /spa/ address.
        expect(page.markdown!.replaceAll('/spa/article/', '/static/article/')).toBe(serverRendered.markdown);
      }
    },
  );
});

describe.each(BROWSERS)('browser engine contract: %s', (engine) => {
  const title = (id: string) => articleFor(id)!.title;

  it('waits for wait_for, a selector or milliseconds', async () => {
    // The article is fetched after the delay, well after the page has loaded and gone quiet.
    const early = await render(engine, '/spa/article/4?delay=2500');
    expect(early.markdown).not.toContain(title('4'));
    const selector = await render(engine, '/spa/article/4?delay=1500', { wait_for: '#root[data-rendered]' });
    expect(selector.markdown).toContain(title('4'));
    const millis = await render(engine, '/spa/article/4?delay=1000', { wait_for: 2000 });
    expect(millis.markdown).toContain(title('4'));
  });

  it("reads the document as rendered, whatever the page's scripts redefine", async () => {
    const tampered = await render(engine, `${echo.origin}/tamper`);
    expect(tampered.error).toBeUndefined();
    expect(tampered.markdown).toContain('tamperPageContent');
    expect(tampered.markdown).not.toContain('tamperedMarkup');
  });

  it("loads a URL that differs from the last page's only in its fragment", async () => {
    // One account: a kept tab still showing /count would only scroll to the fragment.
    const first = await render(engine, `${echo.origin}/count`, {}, 'account-fragment');
    const again = await render(engine, `${echo.origin}/count#again`, {}, 'account-fragment');
    const loadOf = (page: PageResult) => Number(/countPageLoad (\d+)/.exec(page.markdown ?? '')?.[1]);
    expect(again.error).toBeUndefined();
    expect(loadOf(again)).toBe(loadOf(first) + 1);
  });

  it('stops an endless script and keeps the page', async () => {
    const looping = await render(engine, '/infinite-loop', { timeout: 5000 });
    expect(looping.error).toBeUndefined();
    expect(looping.markdown).toContain('infiniteLoopContent');
  });

  it('gives up on scripts that never yield as TIMEOUT, and the next page renders', async () => {
    const started = Date.now();
    const spinning = await render(engine, `${echo.origin}/spin`, { timeout: 5000 });
    expect(spinning.error?.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5000 + 15_000);
    const next = await render(engine, '/static/article/2', { timeout: 5000 });
    expect(next.error).toBeUndefined();
    expect(next.metadata.title).toBe(title('2'));
  });

  it('closes popups, dismisses dialogs and refuses downloads', async () => {
    const popups = await render(engine, '/popups');
    expect(popups.error).toBeUndefined();
    expect(popups.markdown).toContain('popupsContent');
    const dialogs = await render(engine, '/dialogs', { only_main_content: false });
    expect(dialogs.markdown).toContain('dialogsFinished confirm=false prompt=null');
    const download = await render(engine, '/download/page');
    expect(download.error).toBeUndefined();
    expect(download.markdown).toContain('downloadTriggerContent');
    const next = await render(engine, '/static/article/6');
    expect(next.metadata.title).toBe(title('6'));
  });

  it('does not load images, media or fonts with block_resources', async () => {
    site.resetHits();
    await render(engine, '/subresources/local', { block_resources: true });
    for (const path of [
      ...LOCAL_SUBRESOURCES.images,
      ...LOCAL_SUBRESOURCES.fonts,
      ...LOCAL_SUBRESOURCES.media,
    ]) {
      expect([path, site.hits(path)]).toEqual([path, 0]);
    }
    expect(site.hits(LOCAL_SUBRESOURCES.stylesheets[0])).toBe(1);
    await render(engine, '/subresources/local', { block_resources: false });
    expect(site.hits(LOCAL_SUBRESOURCES.images[0])).toBe(1);
  });

  it('takes a full-page PNG screenshot and refuses one past 5 MB as TOO_LARGE', async () => {
    const page = await render(engine, '/static/article/1', { formats: ['markdown', 'screenshot'] });
    expect(page.error).toBeUndefined();
    expect(Buffer.from(page.screenshot!, 'base64').subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    const noise = await render(engine, `${echo.origin}/noise`, { formats: ['markdown', 'screenshot'] });
    expect(noise.error?.code).toBe('TOO_LARGE');
    expect(noise.screenshot).toBeUndefined();
    expect(noise.markdown).toContain('noisePageContent');
  });

  it('renders the page again on a fresh browser when the browser is killed under it, and counts it', async () => {
    // Both pools report the same figures (the worker's scraper_browser_* series, by engine).
    const stats = () => rendering.engines[engine].stats();
    await render(engine, '/static/article/7');
    const before = stats();
    expect(before).toMatchObject({ browsers: 1, browsersInUse: 0, contextsInUse: 0, pagesInFlight: 0 });
    const pending = render(engine, '/slow?ms=2000', { timeout: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(stats()).toMatchObject({ browsers: 1, browsersInUse: 1, contextsInUse: 1, pagesInFlight: 1 });
    const mine = browserProcesses(engine).filter((pid) => !strays.has(pid));
    expect(mine).toHaveLength(1);
    for (const pid of mine) process.kill(pid, 'SIGKILL');
    const page: PageResult = await pending;
    expect(page.error).toBeUndefined();
    expect(page.markdown).toContain('slowPageContent');
    const next = await render(engine, '/static/article/8');
    expect(next.metadata.title).toBe(title('8'));
    const after = stats();
    expect(after).toMatchObject({ browsers: 1, browsersInUse: 0, contextsInUse: 0, pagesInFlight: 0 });
    expect({
      launched: after.browsersLaunched - before.browsersLaunched,
      lost: after.browsersLost - before.browsersLost,
      recycled: after.browsersRecycled - before.browsersRecycled,
      retries: after.retries - before.retries,
    }).toEqual({ launched: 1, lost: 1, recycled: 0, retries: 1 });
  });

  it("never sends one account's cookies with another account's pages", async () => {
    const options = { formats: ['text' as const], only_main_content: false };
    const set = await render(engine, `${echo.origin}/set-cookie?value=alpha`, options, 'account-a');
    expect(set.text).toContain('cookieSetTo alpha');
    const other = await render(engine, `${echo.origin}/echo`, options, 'account-b');
    expect(other.text).toContain('cookieHeader []');
    if (engine === 'playwright') {
      // Pages of one account share a context, cookies included.
      const same = await render(engine, `${echo.origin}/echo`, options, 'account-a');
      expect(same.text).toContain('cookieHeader [session=alpha]');
    }
  });
});

describe('render: auto', () => {
  const auto = (url: string, extra: Partial<ScrapeOptions> = {}) =>
    rendering.service.render({
      url: site.origin + url,
      options: { ...SCRAPE_DEFAULTS, render: 'auto', ...extra },
      isolationKey: 'account-a',
    });

  it('keeps a server-rendered page on plain HTTP', async () => {
    const page = await auto('/static/article/9');
    expect(page.metadata.engine).toBe('http');
    expect(page.markdown).toContain(`# ${articleFor('9')!.title}`);
  });

  it('moves a client-rendered page to the chosen browser engine', async () => {
    const page = await auto('/spa/article/9');
    expect(page.metadata.engine).toBe('playwright');
    expect(page.markdown).toContain(`# ${articleFor('9')!.title}`);
    const puppeteer = await auto('/hash/', { engine: 'puppeteer', only_main_content: false });
    expect(puppeteer.metadata.engine).toBe('puppeteer');
    expect(puppeteer.markdown).toContain('hashHomeView');
  });
});
