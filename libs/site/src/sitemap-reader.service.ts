import { Inject, Injectable, Logger } from '@nestjs/common';
import { AddressPolicy, HOST_RESOLVER, HostResolver, type UpstreamProxy } from '@app/net-guard';
import { parseSitemap } from './sitemap';
import { fetchSiteFile } from './site-file';

/** Sitemap files read per crawl (an index and its children) and the cap on each. */
const MAX_SITEMAP_FILES = 20;
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
const MAX_FETCH_MS = 15_000;

/**
 * The page URLs a site's sitemaps list, to seed a crawl (unless `ignore_sitemap`). Starts from the
 * Sitemap lines of robots.txt, else `/sitemap.xml`; follows sitemap indexes breadth first. A sitemap
 * that cannot be read is skipped: seeding is a help, never a reason for a crawl to fail. `until`
 * (epoch ms) ends the reading early: what was read by then is returned. `proxy`: the job's pages'
 * upstream proxy, which the files are fetched through too.
 */
@Injectable()
export class SitemapReader {
  private readonly logger = new Logger(SitemapReader.name);

  constructor(
    private readonly policy: AddressPolicy,
    @Inject(HOST_RESOLVER) private readonly resolver: HostResolver,
  ) {}

  async pageUrls(
    origin: string,
    listed: string[],
    max: number,
    { until = Infinity, proxy }: { until?: number; proxy?: UpstreamProxy } = {},
  ): Promise<string[]> {
    const queue = listed.length ? [...listed] : [`${origin}/sitemap.xml`];
    const read = new Set<string>();
    const pages: string[] = [];
    while (queue.length && read.size < MAX_SITEMAP_FILES && pages.length < max && Date.now() < until) {
      const url = queue.shift()!;
      if (read.has(url)) continue;
      read.add(url);
      try {
        const file = await fetchSiteFile(
          url,
          { policy: this.policy, resolver: this.resolver, upstream: proxy },
          MAX_SITEMAP_BYTES,
          Math.min(MAX_FETCH_MS, until - Date.now()),
        );
        if (file.status < 200 || file.status >= 300) continue;
        const entries = parseSitemap(file.text);
        pages.push(...entries.pages.slice(0, max - pages.length));
        queue.push(...entries.sitemaps);
      } catch (err) {
        this.logger.debug({ url, err }, 'sitemap not read');
      }
    }
    return pages;
  }
}
