import type { JobView } from '@app/jobs';
import type { PageResult } from '@app/queue-contracts';
import { BackendRefusal } from './scraper-backend';
import { OUTPUT_LIMITS, errorResult, jobResult, mapResult, scrapeResult, truncate } from './tool-output';

const page = (over: Partial<PageResult> = {}): PageResult => ({
  index: 0,
  url: 'https://example.com/',
  final_url: 'https://example.com/',
  status_code: 200,
  markdown: '# Example\n\nHello.',
  metadata: {
    title: 'Example',
    description: null,
    author: null,
    published_at: null,
    language: 'en',
    canonical_url: null,
    site_name: null,
    engine: 'http',
    cache_state: 'miss',
    cached_at: null,
  },
  timings: { total_ms: 10, render_ms: 5 },
  ...over,
});

const texts = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? c.type);

describe('MCP tool output', () => {
  it('cuts text past its bound and says how much was left out', () => {
    expect(truncate('abcdef', 10, 'hint')).toBe('abcdef');
    expect(truncate('abcdefghij', 4, 'ask more')).toBe(
      'abcd\n\n[truncated: 4 of 10 characters shown; ask more]',
    );
  });

  it("answers a scrape's markdown alone first, then the metadata that is set", () => {
    const result = scrapeResult(page(), 1000);
    expect(result.isError).toBeUndefined();
    expect(texts(result)).toEqual([
      '# Example\n\nHello.',
      '[metadata] {"url":"https://example.com/","final_url":"https://example.com/","status_code":200,"title":"Example","language":"en","engine":"http","cache_state":"miss"}',
    ]);
  });

  it('labels several formats, lists links and gives the screenshot as an image', () => {
    const result = scrapeResult(
      page({ text: 'Hello.', links: ['https://a/', 'https://b/'], screenshot: 'iVBO' }),
      1000,
    );
    expect(texts(result).slice(0, 3)).toEqual([
      '[markdown]\n# Example\n\nHello.',
      '[text]\nHello.',
      '[links: 2]\nhttps://a/\nhttps://b/',
    ]);
    expect(result.content[3]).toEqual({ type: 'image', data: 'iVBO', mimeType: 'image/png' });
  });

  it('makes a failed page a tool error naming its code', () => {
    const result = scrapeResult(
      page({ markdown: undefined, status_code: 404, error: { code: 'HTTP_4XX', message: 'Not Found' } }),
      1000,
    );
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toBe('Page error HTTP_4XX for https://example.com/, HTTP 404: Not Found');
  });

  it("bounds a job's results together and points at the next cursor", () => {
    const long = 'x'.repeat(OUTPUT_LIMITS.jobChars);
    const job: JobView = {
      job_id: 'job_1',
      type: 'batch',
      status: 'running',
      created_at: '2026-01-01T00:00:00.000Z',
      started_at: null,
      finished_at: null,
      expires_at: '2026-01-08T00:00:00.000Z',
      total: 4,
      completed: 2,
      failed: 0,
      result: {
        data: [page({ markdown: long }), page({ index: 1, markdown: long, screenshot: 'iVBO' })],
        next: 'c2',
      },
    };
    const result = jobResult(job);
    const [summary, ...rest] = texts(result);
    expect(JSON.parse(summary.split('\n')[0])).toMatchObject({
      job_id: 'job_1',
      status: 'running',
      next_cursor: 'c2',
    });
    expect(summary).toContain('cursor set to next_cursor');
    const total = rest.reduce((n, t) => n + t.length, 0);
    expect(total).toBeLessThan(OUTPUT_LIMITS.jobChars + 2000);
    expect(rest.some((t) => t.includes('[truncated: 50000 of 100000 characters'))).toBe(true);
    // No image inside a job's results.
    expect(result.content.every((c) => c.type === 'text')).toBe(true);
  });

  it("tells an ended job from a running one, and shows a job's own error", () => {
    const ended = jobResult({
      job_id: 'job_2',
      type: 'crawl',
      status: 'failed',
      created_at: '',
      started_at: null,
      finished_at: null,
      expires_at: '',
      total: 1,
      completed: 0,
      failed: 1,
      result: { error: { code: 'BLOCKED_ROBOTS', message: 'robots.txt disallows it' } },
    });
    expect(texts(ended)[0]).toContain('"error":{"code":"BLOCKED_ROBOTS"');
    expect(texts(ended)[0]).toContain('The job has ended.');
  });

  it('bounds a map listing and says it was cut', () => {
    const links = Array.from({ length: 5000 }, (_, i) => `https://example.com/page/${i}`);
    const [text] = texts(mapResult({ links, truncated: true }));
    expect(text.startsWith('5000 URLs (more were found than limit')).toBe(true);
    expect(text.length).toBeLessThan(OUTPUT_LIMITS.mapChars + 500);
    expect(text).toContain('[truncated:');
  });

  it("makes a refusal a tool error with the API's code and status", () => {
    const result = errorResult(new BackendRefusal('quota_exceeded', 'Monthly quota exceeded', 402));
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Refused (quota_exceeded, HTTP 402): Monthly quota exceeded' }],
      isError: true,
    });
  });
});
