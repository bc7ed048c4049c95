import { normaliseUrl } from './url-normaliser';

describe('normaliseUrl', () => {
  const key = (raw: string, base?: string) => normaliseUrl(raw, base)?.key;
  const url = (raw: string, base?: string) => normaliseUrl(raw, base)?.url;

  it('lowercases scheme and host and drops default ports', () => {
    expect(url('HTTP://Example.COM:80/a')).toBe('http://example.com/a');
    expect(url('https://example.com:443/a')).toBe('https://example.com/a');
    expect(url('http://example.com:8080/a')).toBe('http://example.com:8080/a');
    expect(key('https://EXAMPLE.com:443/a')).toBe(key('http://example.com/a'));
  });

  it('keeps ports other than the default in the key', () => {
    expect(key('http://example.com:8080/a')).not.toBe(key('http://example.com/a'));
  });

  it('resolves relative links and dot segments against the base', () => {
    expect(url('../about', 'http://h.test/crawl/blog/x')).toBe('http://h.test/crawl/about');
    expect(url('/crawl/./about', 'http://h.test/')).toBe('http://h.test/crawl/about');
    expect(url('/crawl/blog/../about', 'http://h.test/')).toBe('http://h.test/crawl/about');
  });

  it('drops plain fragments but keeps hash routes', () => {
    expect(url('http://h.test/about#team')).toBe('http://h.test/about');
    expect(url('#team', 'http://h.test/about')).toBe('http://h.test/about');
    expect(url('http://h.test/app/#/one')).toBe('http://h.test/app/#/one');
    expect(url('#!/two', 'http://h.test/app/')).toBe('http://h.test/app/#!/two');
    expect(key('http://h.test/app/#/one')).not.toBe(key('http://h.test/app/#/two'));
    expect(key('http://h.test/app/#/one')).not.toBe(key('http://h.test/app/'));
  });

  it('sorts query parameters by name, keeping the raw text and the order of repeats', () => {
    expect(url('http://h.test/p?b=2&a=1')).toBe('http://h.test/p?a=1&b=2');
    expect(url('http://h.test/p?flag&a=x%20y')).toBe('http://h.test/p?a=x%20y&flag');
    expect(url('http://h.test/p?a=2&a=1')).toBe('http://h.test/p?a=2&a=1');
    expect(url('http://h.test/p?')).toBe('http://h.test/p');
    expect(key('http://h.test/p?b=2&a=1')).toBe(key('http://h.test/p?a=1&b=2'));
  });

  it('folds a trailing slash and the scheme into one key, fetching the spelling given', () => {
    expect(url('http://h.test/about/')).toBe('http://h.test/about/');
    expect(key('http://h.test/about/')).toBe(key('http://h.test/about'));
    expect(key('http://h.test//')).toBe('h.test/');
    expect(key('https://h.test/about')).toBe(key('http://h.test/about'));
    expect(key('http://h.test/about?x=1')).not.toBe(key('http://h.test/about'));
  });

  it('refuses what a crawl cannot fetch', () => {
    for (const raw of [
      'mailto:team@example.invalid',
      'javascript:void(0)',
      'tel:+10000000000',
      'ftp://h.test/file',
      'http://user:pw@h.test/',
      'http://',
    ]) {
      expect(normaliseUrl(raw, 'http://h.test/')).toBeNull();
    }
  });

  it('parses the numeric spellings of an address as the address', () => {
    expect(url('http://0x7f000002:81/x')).toBe('http://127.0.0.2:81/x');
    expect(url('http://2130706434:81/x')).toBe('http://127.0.0.2:81/x');
  });
});
