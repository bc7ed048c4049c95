import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SCRAPE_DEFAULTS } from '@app/queue-contracts';
import type { Rendering } from '../src';
import { startTestRendering } from './test-rendering';

const TIMEOUT_MS = 500;

/** Far more to parse than TIMEOUT_MS allows (about 2.7 MB, 100,000 elements: over a second), yet under every byte cap. */
const bigPage = `<!doctype html><html><head><title>Big</title></head><body>${'<p>A paragraph of text.</p>'.repeat(100_000)}</body></html>`;
/** More tags than parseDocument takes (MAX_ELEMENTS), yet small: refused before parsing. */
const manyTagsPage = `<!doctype html><html><body>${'<i>'.repeat(200_001)}</body></html>`;
/** Nested far past MAX_DEPTH: flattened, its text kept. */
const deepPage = `<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(20_000)}<p>deepText, kept.</p>${'</div>'.repeat(20_000)}</body></html>`;
const smallPage = `<!doctype html><html><head><title>Small</title></head><body><p>${'Server-rendered words. '.repeat(20)}</p></body></html>`;

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    const pages: Record<string, string> = { '/big': bigPage, '/tags': manyTagsPage, '/deep': deepPage };
    res.end(pages[req.url ?? ''] ?? smallPage);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const renderWith = (rendering: Rendering, path: string, render: 'http' | 'auto') =>
  rendering.service.render({
    url: `${origin}${path}`,
    options: { ...SCRAPE_DEFAULTS, render },
    isolationKey: 'acct',
  });

describe('RenderService: content past its bounds', () => {
  let rendering: Rendering;
  beforeAll(async () => {
    rendering = await startTestRendering({ CONTENT_THREADS: 1, CONTENT_TIMEOUT_MS: TIMEOUT_MS });
  });
  afterAll(() => rendering.close());
  const render = (path: string, render: 'http' | 'auto') => renderWith(rendering, path, render);

  it.each(['http', 'auto'] as const)(
    'fails a page whose content outlasts CONTENT_TIMEOUT_MS with TOO_COMPLEX (render: %s), then renders the next',
    async (mode) => {
      const page = await render('/big', mode);
      expect(page).toMatchObject({
        status_code: 200,
        metadata: { engine: 'http', title: null },
        error: {
          code: 'TOO_COMPLEX',
          message: `the page's content took longer than CONTENT_TIMEOUT_MS=${TIMEOUT_MS} ms to process`,
        },
      });
      expect(page.markdown).toBeUndefined();
      const next = await render('/small', mode);
      expect(next.error).toBeUndefined();
      expect(next.markdown).toMatch(/^# Small\n\nServer-rendered words\./);
      expect(rendering.content.stats()).toMatchObject({ threads: 1, busy: 0 });
    },
  );

  it.each(['http', 'auto'] as const)(
    'fails a page of more than 200,000 tags with TOO_COMPLEX before parsing it (render: %s)',
    async (mode) => {
      const page = await render('/tags', mode);
      expect(page.error).toEqual({
        code: 'TOO_COMPLEX',
        message: expect.stringMatching(/^the document has 20000\d tags, more than the 200000 allowed$/),
      });
      expect(page.markdown).toBeUndefined();
    },
  );
});

describe('RenderService: content within its bounds (default CONTENT_TIMEOUT_MS)', () => {
  let rendering: Rendering;
  beforeAll(async () => {
    rendering = await startTestRendering({ CONTENT_THREADS: 1 });
  });
  afterAll(() => rendering.close());

  it('keeps the text of a 20,000-deep nesting (flattened past 512 levels), through render auto', async () => {
    const page = await renderWith(rendering, '/deep', 'auto');
    expect(page.error).toBeUndefined();
    expect(page.metadata.engine).toBe('http');
    expect(page.markdown).toMatch(/^# Deep\n\n[^]*deepText, kept\./);
  });
});
