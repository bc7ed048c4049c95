import { MAP_DEFAULTS } from '@app/queue-contracts';
import { mapLinks } from './map-links';

const start = 'https://www.site.test/';
const settings = { ...MAP_DEFAULTS };

describe('mapLinks', () => {
  it('lists the start URL first, normalised and deduplicated as a crawl does', () => {
    const found = [
      'https://www.site.test/a/#top',
      'http://www.site.test/a',
      'https://site.test/b?z=1&a=2',
      'https://www.site.test/',
      'mailto:x@site.test',
      'not a url',
    ];
    expect(mapLinks(start, found, settings)).toEqual({
      links: ['https://www.site.test/', 'https://www.site.test/a/', 'https://site.test/b?a=2&z=1'],
      truncated: false,
    });
  });

  it("keeps other hosts out, and the start host's subdomains only with allow_subdomains", () => {
    const found = ['https://blog.site.test/post', 'https://other.test/', 'https://site.test.evil.test/'];
    expect(mapLinks(start, found, settings).links).toEqual([start]);
    expect(mapLinks(start, found, { ...settings, allow_subdomains: true }).links).toEqual([
      start,
      'https://blog.site.test/post',
    ]);
  });

  it('puts URLs holding more of the search words first, keeping the order of ties and of the rest', () => {
    const found = [
      'https://site.test/caf%C3%A9',
      'https://site.test/blog/pricing',
      'https://site.test/Pricing',
    ];
    expect(mapLinks(start, found, { ...settings, search: '  pricing  BLOG ' }).links).toEqual([
      'https://site.test/blog/pricing',
      'https://site.test/Pricing',
      start,
      'https://site.test/caf%C3%A9',
    ]);
    expect(mapLinks(start, found, { ...settings, search: 'café' }).links[0]).toBe(
      'https://site.test/caf%C3%A9',
    );
  });

  it('cuts the list to limit after ranking, and says so', () => {
    const found = ['https://site.test/1', 'https://site.test/2', 'https://site.test/match'];
    expect(mapLinks(start, found, { ...settings, limit: 2, search: 'match' })).toEqual({
      links: ['https://site.test/match', start],
      truncated: true,
    });
    expect(mapLinks(start, found, { ...settings, limit: 4 }).truncated).toBe(false);
  });
});
