import { toRobots } from './robots';

const origin = 'http://h.test';
const file = (text: string) => toRobots(origin, { kind: 'file', text });

describe('toRobots', () => {
  const robots = file(
    [
      'User-agent: OtherBot',
      'Disallow: /',
      '',
      'User-agent: *',
      'Disallow: /private/',
      'Allow: /private/open',
      'Crawl-delay: 1.5',
      '',
      'Sitemap: http://h.test/sitemap.xml',
    ].join('\n'),
  );

  it('applies the * group to this crawler', () => {
    expect(robots.check('http://h.test/public')).toBe(true);
    expect(robots.check('http://h.test/private/x')).toBe('disallowed by robots.txt');
    expect(robots.check('http://h.test/private/open')).toBe(true);
  });

  it('reads Crawl-delay in ms and the sitemaps', () => {
    expect(robots.delayMs).toBe(1500);
    expect(robots.sitemaps).toEqual(['http://h.test/sitemap.xml']);
    expect(file('User-agent: *\nDisallow:').delayMs).toBeNull();
  });

  it('allows everything without a file and nothing while it is unavailable', () => {
    expect(toRobots(origin, { kind: 'none' }).check('http://h.test/any')).toBe(true);
    expect(toRobots(origin, { kind: 'unavailable', status: 503 }).check('http://h.test/any')).toMatch(/503/);
  });
});
