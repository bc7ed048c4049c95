import { RE2JS } from 're2js';
import { getDomain } from 'tldts';
import type { CrawlSettings } from '@app/queue-contracts';

type ScopeSettings = Pick<
  CrawlSettings,
  'include_paths' | 'exclude_paths' | 'allow_subdomains' | 'allow_external_links'
>;

const withoutWww = (host: string) => host.replace(/^www\./, '');

/**
 * Which discovered URLs a crawl follows (docs/decisions.md "Crawl"). Hosts: by default the start
 * URL's host, its `www.` twin counted as the same; `allow_subdomains` widens that to every host of
 * its registrable domain (public suffix list, so `a.github.io` and `b.github.io` stay apart);
 * `allow_external_links` to any host. Paths: include/exclude patterns run on RE2 (linear time), so a
 * caller's pattern cannot hang a worker whatever the path.
 */
export class CrawlScope {
  private readonly host: string;
  private readonly domain: string;
  private readonly include: RE2JS[];
  private readonly exclude: RE2JS[];

  constructor(
    startUrl: string,
    private readonly settings: ScopeSettings,
  ) {
    const { hostname } = new URL(startUrl);
    this.host = withoutWww(hostname);
    // An address or a single-label name has no registrable domain: it is its own.
    this.domain = getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
    this.include = settings.include_paths.map((p) => RE2JS.compile(p));
    this.exclude = settings.exclude_paths.map((p) => RE2JS.compile(p));
  }

  /** Null when the crawl follows `url`, else why not (reported as OUT_OF_SCOPE). */
  judge(url: URL): string | null {
    if (!this.hostInScope(url.hostname)) {
      return this.settings.allow_subdomains
        ? `${url.hostname} is outside ${this.domain} (allow_external_links is off)`
        : `${url.hostname} is another host than the start URL's (allow_subdomains and allow_external_links are off)`;
    }
    const path = url.pathname;
    if (this.exclude.some((re) => re.test(path))) return `the path ${path} matches exclude_paths`;
    if (this.include.length && !this.include.some((re) => re.test(path))) {
      return `the path ${path} matches none of include_paths`;
    }
    return null;
  }

  /** Whether a page that redirected to `url` stays on the crawl's site (its links are followed). */
  hostInScope(hostname: string): boolean {
    if (this.settings.allow_external_links || withoutWww(hostname) === this.host) return true;
    return (
      this.settings.allow_subdomains && (hostname === this.domain || hostname.endsWith(`.${this.domain}`))
    );
  }
}
