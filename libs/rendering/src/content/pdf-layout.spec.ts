import { layoutPdf, pdfHtml, pdfMarkdown, pdfText, type PdfTextItem } from './pdf-layout';

/** A run of text at (x, y) in `size` points, about half an em a character wide. */
const run = (str: string, x: number, y: number, size = 10): PdfTextItem => ({
  str,
  x,
  y,
  size,
  width: str.length * size * 0.5,
});

describe('PDF layout', () => {
  it('joins runs of a baseline into a line, a space where they stand apart', () => {
    const items = [run('Hello', 0, 700), run('world', 40, 700), run('again', 70, 700), run('!', 95, 700)];
    expect(pdfText(layoutPdf([{ items, links: [] }], 1))).toBe('Hello world again!');
  });

  it('starts a paragraph where the gap between lines grows past the usual one', () => {
    const items = [
      run('one', 0, 700),
      run('two', 0, 688),
      run('three', 0, 676),
      run('four', 0, 650),
      run('five', 0, 638),
    ];
    expect(pdfMarkdown(layoutPdf([{ items, links: [] }], 1))).toBe('one\ntwo\nthree\n\nfour\nfive');
  });

  it('ranks heading sizes, joins a heading set over two lines, and escapes markdown', () => {
    const items = [
      run('A long title', 0, 750, 24),
      run('over two lines', 0, 724, 24),
      run('Part', 0, 700, 16),
      ...Array.from({ length: 4 }, (_, i) => run(`*body* line ${i}`, 0, 680 - i * 12)),
    ];
    const blocks = layoutPdf([{ items, links: [] }], 1);
    expect(pdfMarkdown(blocks)).toBe(
      '# A long title over two lines\n\n## Part\n\n' +
        [0, 1, 2, 3].map((i) => `\\*body\\* line ${i}`).join('\n'),
    );
    expect(pdfHtml(blocks)).toMatch(
      /^<section data-page="1">\n<h1>A long title over two lines<\/h1>\n<h2>Part<\/h2>\n<p>\*body\* line 0<br>\n/,
    );
  });

  it('marks pages after the first and links the text an annotation covers', () => {
    const pages = [
      { items: [run('First page', 0, 700)], links: [] },
      {
        items: [run('See <the> docs', 0, 700)],
        links: [{ url: 'https://example.com/a b', text: '<the> docs' }],
      },
    ];
    const blocks = layoutPdf(pages, 1);
    expect(pdfMarkdown(blocks)).toBe(
      'First page\n\n<!-- page 2 -->\n\nSee [<the> docs](https://example.com/a%20b)',
    );
    expect(pdfHtml(blocks)).toContain('<p>See <a href="https://example.com/a b">&lt;the&gt; docs</a></p>');
    expect(pdfText(blocks)).toBe('First page\n\f\nSee <the> docs');
  });
});
