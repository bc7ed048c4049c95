import { SCRAPE_DEFAULTS, type PageResult, type ScrapeOptions } from '@app/queue-contracts';
import type { Rendering } from '@app/rendering';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { MANY_PAGES } from '../../../test/fixtures/site/pdf-pages';
import { startTestRendering } from './test-rendering';

// A PDF becomes markdown whichever engine fetched it: http reads the bytes, a browser hands over
// its main response's bytes (DocumentPdfReader); the same content thread converts them.
const ENGINES = ['http', 'playwright', 'puppeteer'] as const;
const PDF_MAX_BYTES = 2 ** 20;

let site: FixtureSite;
let rendering: Rendering;

beforeAll(async () => {
  site = await startFixtureSite();
  rendering = await startTestRendering({ RENDER_IDLE_MS: 300, PDF_MAX_BYTES, PDF_MAX_PAGES: MANY_PAGES - 1 });
});

afterAll(async () => {
  await rendering?.close();
  await site?.close();
});

function render(engine: (typeof ENGINES)[number], path: string, extra: Partial<ScrapeOptions> = {}) {
  const options: ScrapeOptions = {
    ...SCRAPE_DEFAULTS,
    render: engine === 'http' ? 'http' : 'browser',
    engine: engine === 'http' ? 'playwright' : engine,
    timeout: 15_000,
    formats: ['markdown', 'text', 'links', 'raw_html'],
    ...extra,
  };
  return rendering.service.render({ url: `${site.origin}${path}`, options, isolationKey: 'account-a' });
}

const expectReport = (page: PageResult) => {
  expect(page.error).toBeUndefined();
  expect(page.status_code).toBe(200);
  expect(page.markdown).toMatch(
    /^# Quarterly report\n\n## Section 1\n\nBody text of page 1\.\n\[Read the appendix online\.\]\(http:\/\/127\.0\.0\.1\/appendix\)\n\n<!-- page 2 -->\n\n## Section 2\n/,
  );
  expect(page.text).toContain('\f');
  expect(page.links).toEqual(['http://127.0.0.1/appendix']);
  expect(page.raw_html).toBeUndefined();
  expect(page.metadata).toMatchObject({ title: 'Quarterly report', author: 'Fixture Author', page_count: 3 });
};

describe.each(ENGINES)('PDF documents over %s', (engine) => {
  it.each(['/pdf/report.pdf', '/pdf/octet', '/pdf/attachment.pdf', '/files/document.pdf'])(
    'converts %s',
    async (path) => {
      const page = await render(engine, path);
      if (path === '/files/document.pdf') expect(page.markdown).toBe('Fixture PDF document');
      else expectReport(page);
      expect(page.metadata.engine).toBe(engine);
    },
  );

  it('converts the whole text whatever only_main_content says', async () => {
    const [main, all] = await Promise.all([
      render(engine, '/pdf/report.pdf', { only_main_content: true }),
      render(engine, '/pdf/report.pdf', { only_main_content: false }),
    ]);
    expect(main.markdown).toBe(all.markdown);
  });

  it.each([
    ['/pdf/encrypted.pdf', 'UNSUPPORTED_CONTENT', /encrypted/],
    ['/pdf/truncated.pdf', 'UNSUPPORTED_CONTENT', /^the PDF (is malformed|could not be read)/],
    ['/pdf/large.pdf', 'TOO_LARGE', new RegExp(`exceeds ${PDF_MAX_BYTES} bytes`)],
    ['/pdf/many-pages.pdf', 'TOO_COMPLEX', /PDF_MAX_PAGES/],
    ['/pdf/bomb.pdf', 'TOO_COMPLEX', /PDF_MAX_INFLATED_BYTES/],
  ])('refuses %s as %s', async (path, code, message) => {
    const page = await render(engine, path);
    expect(page.error).toEqual({ code, message: expect.stringMatching(message) });
    expect(page.markdown).toBeUndefined();
  });
});
