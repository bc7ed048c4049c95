import { InvalidRequestError } from '@app/common';
import { toBatchBody, toCrawlBody, toMapBody, toSingleScrapeBody, toWebhookUrl } from './firecrawl-request';

/** The refusal's message, or a failure when the mapping accepted the body. */
function refusal(map: () => unknown): string {
  try {
    map();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError);
    return (err as Error).message;
  }
  throw new Error('accepted');
}

describe('Firecrawl scrape options onto ours', () => {
  it('renames their fields and formats, and drops the SDK origin and their cache hints', () => {
    expect(
      toSingleScrapeBody({
        url: 'https://example.com/',
        formats: [
          'markdown',
          'rawHtml',
          { type: 'screenshot', fullPage: true },
          'screenshot@fullPage',
          'links',
        ],
        onlyMainContent: false,
        includeTags: ['main'],
        excludeTags: ['nav'],
        waitFor: 500,
        timeout: 20000,
        mobile: true,
        headers: { 'X-Test': '1' },
        proxy: 'auto',
        maxAge: 0,
        storeInCache: true,
        origin: 'js-sdk@4.42.0',
      }),
    ).toEqual({
      url: 'https://example.com/',
      formats: ['markdown', 'raw_html', 'screenshot', 'links'],
      only_main_content: false,
      include_tags: ['main'],
      exclude_tags: ['nav'],
      wait_for: 500,
      timeout: 20000,
      max_age: 0,
      mobile: true,
      headers: { 'X-Test': '1' },
    });
  });

  it('takes their zero waitFor as no wait, and basic proxies as our default', () => {
    expect(toSingleScrapeBody({ url: 'u', waitFor: 0, proxy: 'basic' })).toEqual({ url: 'u' });
  });

  it('turns location.languages into Accept-Language unless the caller set one', () => {
    expect(toSingleScrapeBody({ url: 'u', location: { languages: ['de-DE', 'en'] } })).toEqual({
      url: 'u',
      headers: { 'Accept-Language': 'de-DE, en' },
    });
    expect(
      toSingleScrapeBody({ url: 'u', location: { languages: ['de'] }, headers: { 'accept-language': 'fr' } }),
    ).toEqual({ url: 'u', headers: { 'accept-language': 'fr' } });
  });

  it('maps their actions onto ours', () => {
    expect(
      toSingleScrapeBody({
        url: 'u',
        actions: [
          { type: 'wait', milliseconds: 100 },
          { type: 'executeJavascript', script: '1' },
          { type: 'screenshot', fullPage: true },
        ],
      }).actions,
    ).toEqual([
      { type: 'wait', milliseconds: 100 },
      { type: 'execute_javascript', script: '1' },
      { type: 'screenshot', full_page: true },
    ]);
  });

  it.each([
    [
      { formats: [{ type: 'json', prompt: 'p' }] },
      'formats[0]: json needs an LLM, which this server does not run',
    ],
    [{ formats: ['summary'] }, 'formats[0]: summary needs an LLM, which this server does not run'],
    [{ formats: ['branding'] }, 'formats[0]: branding is not a format this server produces'],
    [
      { formats: [{ type: 'screenshot', quality: 50 }] },
      'formats[0].quality: is not supported by this server',
    ],
    [{ jsonOptions: {} }, 'jsonOptions: needs an LLM, which this server does not run'],
    [{ proxy: 'stealth' }, 'proxy: only basic and auto are supported (stealth and enhanced proxies are not)'],
    [
      { location: { country: 'US' } },
      'location.country: country geotargeting is not supported by this server (leave it unset)',
    ],
    [
      { skipTlsVerification: true },
      'skipTlsVerification: TLS certificates are always verified by this server',
    ],
    [
      { zeroDataRetention: true },
      'zeroDataRetention: results are kept for RESULT_RETENTION_DAYS on this server',
    ],
    [{ lockdown: true }, 'lockdown: is not a field this server takes'],
    [{ constructor: 1 }, 'constructor: is not a field this server takes'],
    [{ formats: ['toString'] }, 'formats[0]: toString is not a format this server produces'],
  ])('refuses what it cannot honour: %j', (options, message) => {
    expect(refusal(() => toSingleScrapeBody({ url: 'u', ...options }))).toBe(message);
  });
});

describe('Firecrawl batch, crawl and map bodies onto ours', () => {
  it('maps a batch, its webhook included', () => {
    expect(
      toBatchBody({
        urls: ['a', 'b'],
        formats: ['html'],
        webhook: 'https://hooks.example/x',
        maxConcurrency: 2,
      }),
    ).toEqual({ urls: ['a', 'b'], formats: ['html'], webhook_url: 'https://hooks.example/x' });
    expect(refusal(() => toBatchBody({ urls: ['a'], ignoreInvalidURLs: true }))).toMatch(
      /^ignoreInvalidURLs: /,
    );
  });

  it('maps a v2 crawl with its scrapeOptions, and a v1 one', () => {
    expect(
      toCrawlBody({
        url: 'u',
        limit: 5,
        maxDiscoveryDepth: 2,
        includePaths: ['^/blog'],
        excludePaths: ['/tag/'],
        sitemap: 'skip',
        allowExternalLinks: false,
        allowSubdomains: true,
        crawlEntireDomain: false,
        ignoreRobotsTxt: false,
        scrapeOptions: { formats: ['markdown'], onlyMainContent: true },
      }),
    ).toEqual({
      url: 'u',
      limit: 5,
      max_depth: 2,
      include_paths: ['^/blog'],
      exclude_paths: ['/tag/'],
      ignore_sitemap: true,
      allow_external_links: false,
      allow_subdomains: true,
      respect_robots_txt: true,
      formats: ['markdown'],
      only_main_content: true,
    });
    expect(toCrawlBody({ url: 'u', maxDepth: 1, ignoreSitemap: false, allowBackwardLinks: true })).toEqual({
      url: 'u',
      max_depth: 1,
      ignore_sitemap: false,
    });
  });

  it.each([
    [{ prompt: 'blog posts' }, /^prompt: needs an LLM/],
    [{ sitemap: 'only' }, /^sitemap: only: crawling from the sitemap alone/],
    [{ delay: 2 }, /^delay: a fixed delay is not supported/],
    [{ scrapeOptions: { formats: ['json'] } }, /^scrapeOptions\.formats\[0\]: json needs an LLM/],
    [{ scrapeOptions: { url: 'x' } }, /^scrapeOptions\.url: is not a field this server takes/],
  ])('refuses in a crawl %j', (options, message) => {
    expect(refusal(() => toCrawlBody({ url: 'u', ...options }))).toMatch(message);
  });

  it('maps a map', () => {
    expect(
      toMapBody({
        url: 'u',
        search: 'docs',
        limit: 10,
        includeSubdomains: true,
        sitemap: 'include',
        timeout: 5000,
      }),
    ).toEqual({
      url: 'u',
      search: 'docs',
      limit: 10,
      allow_subdomains: true,
      ignore_sitemap: false,
    });
    expect(refusal(() => toMapBody({ url: 'u', sitemapOnly: true }))).toMatch(/^sitemapOnly: /);
    expect(refusal(() => toMapBody({ url: 'u', location: { country: 'FR' } }))).toMatch(
      /^location\.country: /,
    );
  });

  it('refuses a body that is not an object', () => {
    expect(refusal(() => toMapBody(['u']))).toBe('The body must be a JSON object');
    expect(refusal(() => toCrawlBody({ url: 'u', scrapeOptions: 'x' }))).toBe(
      'scrapeOptions must be a JSON object',
    );
  });
});

describe('Firecrawl webhooks onto our webhook_url', () => {
  it('takes a URL, or {url} with their completed and failed events', () => {
    expect(toWebhookUrl('https://h.example/')).toBe('https://h.example/');
    expect(toWebhookUrl({ url: 'https://h.example/' })).toBe('https://h.example/');
    expect(toWebhookUrl({ url: 'https://h.example/', events: ['failed', 'completed'], headers: {} })).toBe(
      'https://h.example/',
    );
  });

  it.each([
    [
      { url: 'https://h/', events: ['completed'] },
      /^webhook\.events: this server sends one webhook when the job ends/,
    ],
    [{ url: 'https://h/', events: ['completed', 'failed', 'page'] }, /^webhook\.events: /],
    [{ url: 'https://h/', headers: { 'X-Token': 'a' } }, /^webhook\.headers: /],
    [{ url: 'https://h/', metadata: { run: '1' } }, /^webhook\.metadata: /],
    [{ url: 'https://h/', secret: 'x' }, /^webhook\.secret: is not a field/],
  ])('refuses %j', (webhook, message) => {
    expect(refusal(() => toWebhookUrl(webhook))).toMatch(message);
  });
});
