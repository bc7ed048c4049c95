import { CRAWL_DEFAULTS } from '@app/queue-contracts';
import { CrawlScope } from './crawl-scope';

const scope = (start: string, settings: Partial<typeof CRAWL_DEFAULTS> = {}) =>
  new CrawlScope(start, { ...CRAWL_DEFAULTS, ...settings });
const judge = (s: CrawlScope, url: string) => s.judge(new URL(url));

describe('CrawlScope', () => {
  it('follows the start host (and its www twin) only, by default', () => {
    const s = scope('https://www.example.com/docs/');
    expect(judge(s, 'https://www.example.com/a')).toBeNull();
    expect(judge(s, 'http://example.com:8080/a')).toBeNull();
    expect(judge(s, 'https://blog.example.com/a')).toMatch(/another host/);
    expect(judge(s, 'https://other.test/a')).toMatch(/another host/);
  });

  it('follows every host of the registrable domain with allow_subdomains', () => {
    const s = scope('https://www.example.co.uk/', { allow_subdomains: true });
    expect(judge(s, 'https://example.co.uk/')).toBeNull();
    expect(judge(s, 'https://a.b.example.co.uk/')).toBeNull();
    expect(judge(s, 'https://other.co.uk/')).toMatch(/outside example\.co\.uk/);
    expect(judge(s, 'https://notexample.co.uk/')).toMatch(/outside/);
  });

  it('keeps tenants of a private public suffix apart', () => {
    const s = scope('https://alice.github.io/', { allow_subdomains: true });
    expect(judge(s, 'https://docs.alice.github.io/')).toBeNull();
    expect(judge(s, 'https://bob.github.io/')).toMatch(/outside/);
  });

  it('treats an address as its own domain', () => {
    const s = scope('http://127.0.0.1:4000/crawl/', { allow_subdomains: true });
    expect(judge(s, 'http://127.0.0.1:4000/x')).toBeNull();
    expect(judge(s, 'http://127.0.0.2:4000/x')).toMatch(/outside/);
    expect(judge(s, 'http://foo.localhost:4000/x')).toMatch(/outside/);
  });

  it('follows any host with allow_external_links', () => {
    const s = scope('https://example.com/', { allow_external_links: true });
    expect(judge(s, 'https://other.test/a')).toBeNull();
  });

  it('applies include and exclude patterns to the path, exclude first', () => {
    const s = scope('https://example.com/', {
      include_paths: ['^/blog/', '^/docs$'],
      exclude_paths: ['/drafts/'],
    });
    expect(judge(s, 'https://example.com/blog/post?x=/drafts/')).toBeNull();
    expect(judge(s, 'https://example.com/docs')).toBeNull();
    expect(judge(s, 'https://example.com/docs/x')).toMatch(/none of include_paths/);
    expect(judge(s, 'https://example.com/blog/drafts/1')).toMatch(/matches exclude_paths/);
  });

  it('matches a pattern that backtracks catastrophically in linear time', () => {
    const s = scope('https://example.com/', { include_paths: ['^/(a+)+$'] });
    const started = Date.now();
    expect(judge(s, `https://example.com/${'a'.repeat(20_000)}b`)).toMatch(/none of include_paths/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
