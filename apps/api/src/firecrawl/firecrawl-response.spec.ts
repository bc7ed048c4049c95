import type { JobView } from '@app/jobs';
import type { PageResult } from '@app/queue-contracts';
import { THEIR_FIELD_NAMES } from './firecrawl-request';
import { toDocument, toErrorBody, toErrors, toJobStatus, toMapLinks } from './firecrawl-response';

const metadata = {
  title: 'T',
  description: null,
  author: null,
  published_at: '2025-01-02',
  language: 'en',
  canonical_url: null,
  site_name: null,
  engine: 'http' as const,
  cache_state: 'miss' as const,
  cached_at: null,
};
const page = (index: number, extra: Partial<PageResult> = {}): PageResult => ({
  index,
  url: `https://e.example/${index}`,
  final_url: `https://e.example/${index}`,
  status_code: 200,
  markdown: `# ${index}`,
  metadata,
  timings: { total_ms: 1, render_ms: 1 },
  ...extra,
});
const failed = (
  index: number,
  code: 'OUT_OF_SCOPE' | 'BLOCKED_ROBOTS' | 'DNS' | 'HTTP_4XX',
  status: number | null = null,
) => page(index, { status_code: status, markdown: undefined, error: { code, message: `${code} happened` } });

const view = (status: JobView['status']): JobView => ({
  job_id: 'job_1',
  type: 'crawl',
  status,
  created_at: '2026-01-01T00:00:00.000Z',
  started_at: null,
  finished_at: null,
  expires_at: '2026-01-31T00:00:00.000Z',
  total: 5,
  completed: 2,
  failed: 3,
  result: null,
});

describe('our answers in Firecrawl shapes', () => {
  it('a page result is their document: camelCase formats, a data-URL screenshot, their metadata', () => {
    expect(
      toDocument(
        page(0, {
          raw_html: '<html>',
          screenshot: 'iVBOR',
          final_url: 'https://e.example/moved',
          actions: { screenshots: ['AAA'], javascript_returns: [{ type: 'number', value: 1 }], scrapes: [] },
        }),
      ),
    ).toEqual({
      markdown: '# 0',
      rawHtml: '<html>',
      screenshot: 'data:image/png;base64,iVBOR',
      actions: {
        screenshots: ['data:image/png;base64,AAA'],
        javascriptReturns: [{ type: 'number', value: 1 }],
        scrapes: [],
        pdfs: [],
      },
      metadata: {
        title: 'T',
        language: 'en',
        publishedTime: '2025-01-02',
        sourceURL: 'https://e.example/0',
        url: 'https://e.example/moved',
        statusCode: 200,
        cacheState: 'miss',
      },
    });
  });

  it('a status holds only fetched pages (a 404 is one), queued and running read as scraping', () => {
    const pages = [
      page(0),
      failed(1, 'OUT_OF_SCOPE'),
      failed(2, 'HTTP_4XX', 404),
      failed(3, 'BLOCKED_ROBOTS'),
    ];
    const running = toJobStatus({
      view: view('running'),
      pages,
      next: 'https://api/firecrawl/v2/crawl/job_1?skip=4',
    });
    expect(running).toMatchObject({
      success: true,
      status: 'scraping',
      completed: 5,
      total: 5,
      expiresAt: '2026-01-31T00:00:00.000Z',
      next: 'https://api/firecrawl/v2/crawl/job_1?skip=4',
    });
    expect(
      (running.data as { metadata: { sourceURL: string; statusCode: number } }[]).map(
        (d) => d.metadata.statusCode,
      ),
    ).toEqual([200, 404]);
    expect(toJobStatus({ view: view('queued'), pages: [] }).status).toBe('scraping');
    const done = toJobStatus({ view: view('completed'), pages: [] });
    expect(done.status).toBe('completed');
    // Absent, not null: their v1 client follows `next` whenever the key is there.
    expect('next' in done).toBe(false);
  });

  it('errors list unfetched failures; robots.txt refusals apart; out of scope and 404s in neither', () => {
    expect(
      toErrors('job_1', [
        failed(1, 'OUT_OF_SCOPE'),
        failed(2, 'DNS'),
        failed(3, 'BLOCKED_ROBOTS'),
        failed(4, 'HTTP_4XX', 404),
      ]),
    ).toEqual({
      errors: [{ id: 'job_1:2', url: 'https://e.example/2', code: 'DNS', error: 'DNS happened' }],
      robotsBlocked: ['https://e.example/3'],
    });
  });

  it('map links are URLs in v1 and {url} in v2', () => {
    expect(toMapLinks('v1', ['a'])).toEqual({ success: true, links: ['a'] });
    expect(toMapLinks('v2', ['a'])).toEqual({ success: true, links: [{ url: 'a' }] });
  });

  it('our error body is theirs, with their field names', () => {
    expect(
      toErrorBody(
        {
          detail: 'wait_for: wait_for must be a CSS selector',
          code: 'invalid_request',
          errors: [{ field: 'webhook_url', message: 'must be https' }],
        },
        THEIR_FIELD_NAMES,
      ),
    ).toEqual({
      success: false,
      error: 'waitFor: waitFor must be a CSS selector',
      code: 'invalid_request',
      details: [{ field: 'webhook', message: 'must be https' }],
    });
    expect(
      toErrorBody({ detail: 'Missing or invalid API key', code: 'unauthorized' }, THEIR_FIELD_NAMES),
    ).toEqual({
      success: false,
      error: 'Missing or invalid API key',
      code: 'unauthorized',
    });
    expect(
      toErrorBody({ detail: 'Quota', code: 'quota_exceeded', limit: 10, used: 10 }, THEIR_FIELD_NAMES),
    ).toEqual({
      success: false,
      error: 'Quota',
      code: 'quota_exceeded',
      details: { limit: 10, used: 10 },
    });
  });
});
