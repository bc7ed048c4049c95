import { SCRAPE_DEFAULTS, type ScrapeOptions } from '@app/queue-contracts';
import type { Rendering } from '@app/rendering';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { startTestRendering } from './test-rendering';

// The egress proxy's byte cap (EGRESS_MAX_BYTES) with real Chromium behind it, set low so that the
// fixture's endless stream reaches it quickly.
const CAP = 2 * 1024 * 1024;

let site: FixtureSite;
let rendering: Rendering;

beforeAll(async () => {
  site = await startFixtureSite();
  rendering = await startTestRendering({ EGRESS_MAX_BYTES: CAP, RENDER_IDLE_MS: 300 });
});

afterAll(async () => {
  await rendering?.close();
  await site?.close();
});

afterEach(() => expect(site.leakedRequests()).toEqual([]));

function render(engine: 'playwright' | 'puppeteer', path: string, extra: Partial<ScrapeOptions> = {}) {
  return rendering.service.render({
    url: site.origin + path,
    options: { ...SCRAPE_DEFAULTS, render: 'browser', engine, timeout: 20_000, ...extra },
    isolationKey: 'account-a',
  });
}

describe.each(['playwright', 'puppeteer'] as const)('egress byte cap: %s', (engine) => {
  it('cuts a subresource that streams past the cap; the page itself renders', async () => {
    const before = rendering.proxy.stats().cut;
    // Without the cap the script never writes #result and the wait ends in TIMEOUT.
    const page = await render(engine, '/endless-fetch', { wait_for: '#result', formats: ['text'] });
    expect(page.error).toBeUndefined();
    expect(page.status_code).toBe(200);
    const [, outcome, bytes] = /(fetch\w+) after (\d+) bytes/.exec(page.text ?? '') ?? [];
    expect(outcome).toBe('fetchCut');
    // Not more than 0: on loopback the proxy can pass all 2 MiB into the kernel's socket buffers
    // before the page's script reads any, and a body that errors drops what the script had not
    // read (seen once in CI under load: "fetchCut after 0 bytes").
    expect(Number(bytes)).toBeLessThanOrEqual(CAP);
    expect(rendering.proxy.stats().cut).toBe(before + 1);
  });

  it('refuses a document whose content-length exceeds the cap as TOO_LARGE', async () => {
    const page = await render(engine, '/huge?mb=3&length');
    expect(page.error?.code).toBe('TOO_LARGE');
    expect(page.markdown).toBeUndefined();
  });

  it('goes on rendering after a cut', async () => {
    const page = await render(engine, '/static/article/1');
    expect(page.error).toBeUndefined();
    expect(page.metadata.title).toBeTruthy();
  });
});
