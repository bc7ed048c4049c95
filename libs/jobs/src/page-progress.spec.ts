import { NO_METADATA, RENDERED_NOW, type PageResult } from '@app/queue-contracts';
import { MAX_STORED_RESULT_BYTES, storable } from './page-progress';

const page = (overrides: Partial<PageResult>): PageResult => ({
  index: 4,
  url: 'http://site.test/big',
  final_url: 'http://site.test/big',
  status_code: 200,
  metadata: { ...NO_METADATA, title: 'Big', language: 'en', engine: 'http', ...RENDERED_NOW },
  timings: { total_ms: 900, render_ms: 800 },
  ...overrides,
});

describe('storable', () => {
  it('stores a result that fits one MySQL packet as it is', () => {
    const result = page({ markdown: '# Big\n\ntext' });
    expect(storable(result)).toEqual({ result, json: JSON.stringify(result) });
  });

  it('stores a result over the cap as TOO_LARGE, without its content but with what else it had', () => {
    const tenMb = 'x'.repeat(10 * 1024 * 1024);
    const { result, json } = storable(page({ raw_html: tenMb, html: tenMb, markdown: '# Big' }));
    expect(result).toEqual(
      page({
        error: { code: 'TOO_LARGE', message: expect.stringMatching(/is 20\.0 MiB, over the 15\.0 MiB/) },
      }),
    );
    expect(Buffer.byteLength(json)).toBeLessThan(MAX_STORED_RESULT_BYTES);
    expect(JSON.parse(json)).toEqual(result);
  });

  it('leaves out the action results too: they can make up most of the size', () => {
    const snapshot = { url: 'http://site.test/big', html: 'x'.repeat(9 * 1024 * 1024) };
    const actions = {
      screenshots: ['A'.repeat(7 * 1024 * 1024)],
      javascript_returns: [],
      scrapes: [snapshot],
    };
    const { result } = storable(page({ markdown: '# Big', actions }));
    expect(result.actions).toBeUndefined();
    expect(result.error?.code).toBe('TOO_LARGE');
  });
});
