import { SCRAPE_DEFAULTS, type ScrapeOptions } from '@app/queue-contracts';
import type { Rendering } from '@app/rendering';
import type { UpstreamProxy } from '@app/net-guard';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { startForwardProxy, startSocks5Proxy, type ForwardProxy } from '../../../test/fixtures/forward-proxy';
import { makeTestCertificate } from '../../../test/fixtures/https';
import { startTestRendering } from './test-rendering';

// A page with an upstream proxy goes through it with each engine (the browsers by way of an egress
// proxy of the page's own, which makes the authenticated hop); a proxy that refuses us is PROXY.
// An https proxy's certificate chains to NODE_EXTRA_CA_CERTS, as the worker is given it.
const ENGINES = [
  ['http', { render: 'http' }],
  ['playwright', { render: 'browser', engine: 'playwright' }],
  ['puppeteer', { render: 'browser', engine: 'puppeteer' }],
] as const;
const CREDS = { username: 'alice', password: 's3cret' };

let site: FixtureSite;
let rendering: Rendering;
let httpProxy: ForwardProxy;
let socksProxy: ForwardProxy;
let httpsProxy: ForwardProxy;

beforeAll(async () => {
  site = await startFixtureSite();
  const certificate = makeTestCertificate();
  rendering = await startTestRendering({ NODE_EXTRA_CA_CERTS: certificate.caPath });
  httpProxy = await startForwardProxy(CREDS);
  socksProxy = await startSocks5Proxy(CREDS);
  httpsProxy = await startForwardProxy(CREDS, { tls: certificate });
});

afterAll(async () => {
  await rendering?.close();
  await Promise.all([site?.close(), httpProxy?.close(), socksProxy?.close(), httpsProxy?.close()]);
});

function render(options: Partial<ScrapeOptions>, proxy: UpstreamProxy) {
  return rendering.service.render({
    url: `${site.origin}/`,
    options: { ...SCRAPE_DEFAULTS, timeout: 20_000, ...options },
    isolationKey: 'account-proxies',
    proxy,
  });
}

describe.each(ENGINES)('upstream proxies: %s', (engine, options) => {
  it.each([
    ['http', () => httpProxy],
    ['socks5', () => socksProxy],
    ['https', () => httpsProxy],
  ])('loads the page through a %s proxy with credentials', async (_, proxy) => {
    const before = proxy().carried.length;
    const page = await render(options, { url: proxy().url, ...CREDS });
    expect(page.error).toBeUndefined();
    expect(page.metadata.engine).toBe(engine);
    expect(page.markdown).toBeTruthy();
    const carried = proxy().carried.slice(before);
    expect(carried.length).toBeGreaterThan(0);
    expect(carried.every((c) => c.accepted && c.user === 'alice')).toBe(true);
    expect(carried.map((c) => c.target)).toContain(new URL(site.origin).host);
  });

  it('fails the page with PROXY when the proxy refuses our credentials', async () => {
    const page = await render(options, { url: httpProxy.url, username: 'alice', password: 'wrong' });
    expect(page.error?.code).toBe('PROXY');
    expect(page.error?.message).not.toContain('wrong');
  });

  it('fails the page with BLOCKED_ADDRESS for a proxy at a refused address', async () => {
    const page = await render(options, { url: 'http://127.0.0.2:3128' });
    expect(page.error?.code).toBe('BLOCKED_ADDRESS');
  });
});
