import { buildPdf, reportPdf } from '../../../test/fixtures/pdf-builder';
import { ContentPool } from '../src/content-pool/content-pool';
import type { ContentAnswer } from '../src/content-pool/content-thread';

type Format = 'markdown' | 'text' | 'html' | 'links';

// PDFs through the content threads, as the worker converts them: pdf.js runs in the thread.
describe('PDF documents in the content pool', () => {
  const pool = new ContentPool({
    CONTENT_THREADS: 1,
    CONTENT_HEAP_MB: 256,
    CONTENT_TIMEOUT_MS: 10_000,
    PDF_MAX_PAGES: 50,
    PDF_MAX_INFLATED_BYTES: 64 * 2 ** 20,
  });
  afterAll(() => pool.close());

  const convert = (bytes: Buffer, formats: Format[] = ['markdown', 'text', 'html', 'links']) =>
    pool.pdf({
      bytes,
      url: 'http://127.0.0.1/doc.pdf',
      options: { formats, only_main_content: true },
    });
  const content = (answer: ContentAnswer) => {
    if (!('content' in answer)) throw new Error(`no content: ${JSON.stringify(answer)}`);
    return answer.content;
  };

  it('gives the whole text with headings by font size, page markers and metadata', async () => {
    const { markdown, text, html, metadata } = content(await convert(reportPdf(3)));
    expect(markdown).toBe(
      [
        '# Quarterly report',
        '## Section 1',
        'Body text of page 1, first line of the paragraph.\nIt continues on a second line of the same paragraph.',
        '<!-- page 2 -->',
        '## Section 2',
        'Body text of page 2, first line of the paragraph.\nIt continues on a second line of the same paragraph.',
        '<!-- page 3 -->',
        '## Section 3',
        'Body text of page 3, first line of the paragraph.\nIt continues on a second line of the same paragraph.',
      ].join('\n\n'),
    );
    expect(text).toContain('Section 1\n\nBody text of page 1');
    expect(text!.split('\f')).toHaveLength(3);
    expect(html).toContain('<section data-page="2">\n<h2>Section 2</h2>\n<p>Body text of page 2');
    expect(metadata).toMatchObject({ title: 'Quarterly report', author: 'Fixture Author', page_count: 3 });
  });

  it('ranks heading sizes into levels and keeps link annotations', async () => {
    const pdf = buildPdf({
      pages: [
        {
          lines: [
            { text: 'Main heading', size: 28 },
            { text: 'Sub heading', size: 18 },
            { text: 'See the full terms (2026) for details.' },
            { text: 'Contact us by mail.' },
          ],
          links: [
            { line: 2, url: 'https://example.com/terms (2026)' },
            { line: 3, url: 'mailto:team@example.com' },
          ],
        },
      ],
    });
    const { markdown, links, html, metadata } = content(await convert(pdf));
    expect(markdown).toMatch(/^# Main heading\n\n## Sub heading\n\n/);
    expect(markdown).toContain(
      '[See the full terms (2026) for details.](https://example.com/terms%20%282026%29)',
    );
    expect(markdown).toContain('[Contact us by mail.](mailto:team@example.com)');
    expect(links).toEqual(['https://example.com/terms%20(2026)', 'mailto:team@example.com']);
    expect(html).toContain('<a href="mailto:team@example.com">Contact us by mail.</a>');
    expect(metadata).toMatchObject({ title: null, author: null, page_count: 1 });
  });

  it('refuses an encrypted PDF as UNSUPPORTED_CONTENT', async () => {
    const answer = await convert(buildPdf({ encrypted: true, pages: [{ lines: [{ text: 'Secret' }] }] }));
    expect(answer).toEqual({
      refused: { code: 'UNSUPPORTED_CONTENT', message: 'the PDF is encrypted and needs a password to open' },
    });
  });

  it('refuses a truncated or malformed PDF as UNSUPPORTED_CONTENT', async () => {
    const truncated = await convert(reportPdf(2).subarray(0, 20));
    expect(truncated).toMatchObject({ refused: { code: 'UNSUPPORTED_CONTENT' } });
    expect((truncated as { refused: { message: string } }).refused.message).toMatch(
      /^the PDF (is malformed|could not be read)/,
    );
    const garbage = await convert(Buffer.from('%PDF-1.7\nnothing but this line\n'));
    expect(garbage).toMatchObject({ refused: { code: 'UNSUPPORTED_CONTENT' } });
  });

  it('refuses more pages than PDF_MAX_PAGES as TOO_COMPLEX', async () => {
    expect(await convert(reportPdf(51))).toEqual({
      refused: { code: 'TOO_COMPLEX', message: 'the PDF has 51 pages, more than PDF_MAX_PAGES=50' },
    });
  });

  it('refuses a decompression bomb as TOO_COMPLEX before pdf.js inflates it, and keeps working', async () => {
    const bomb = buildPdf({ bombBytes: 300 * 2 ** 20, pages: [{ lines: [{ text: 'Boom' }] }] });
    expect(bomb.length).toBeLessThan(2 * 2 ** 20);
    expect(await convert(bomb)).toEqual({
      refused: {
        code: 'TOO_COMPLEX',
        message: "the PDF's compressed streams inflate past PDF_MAX_INFLATED_BYTES=67108864 bytes",
      },
    });
    // A small Flate stream is converted as usual.
    const small = buildPdf({ bombBytes: 1000, pages: [{ lines: [{ text: 'Compressed text' }] }] });
    expect(content(await convert(small, ['markdown'])).markdown).toBe('Compressed text');
    expect(pool.stats().tasks.error).toBe(0);
  });
});
