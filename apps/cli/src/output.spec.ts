import { pageFileName } from './output';

describe('pageFileName', () => {
  it('names a page by its position, host and path, in letters, digits, dots and dashes', () => {
    expect(pageFileName('http://127.0.0.1:4000/crawl/products?a=1&b=2', 2, 'markdown')).toBe(
      '0002-127.0.0.1-4000-crawl-products-a-1-b-2.md',
    );
    expect(pageFileName('https://example.com/', 0, 'html')).toBe('0000-example.com.html');
  });

  it('never leaves a path, a parent or an over-long name', () => {
    const names = [
      pageFileName('http://h.test/../../etc/passwd', 1, 'text'),
      pageFileName('http://h.test/%2e%2e/%2F..%2F/x', 2, 'markdown'),
      pageFileName(`http://h.test/${'a'.repeat(500)}`, 3, 'markdown'),
      pageFileName('http://xn--bcher-kva.test/ü/…', 4, 'markdown'),
    ];
    for (const name of names) {
      expect(name).toMatch(/^\d{4}-[A-Za-z0-9][A-Za-z0-9.-]*\.(md|txt)$/);
      expect(name).not.toContain('..');
      expect(name.length).toBeLessThanOrEqual(112);
    }
  });
});
