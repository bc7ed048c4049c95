import { Injectable } from '@nestjs/common';
import { UsageRecorder } from '@app/auth';
import { SealedHeaders } from '@app/jobs';
import type { UpstreamProxy } from '@app/net-guard';
import { MAP_TIME_MS, type MapData, type MapResult, SCRAPE_DEFAULTS } from '@app/queue-contracts';
import { RenderService } from '@app/rendering';
import { RobotsRules } from '../crawl/robots-rules.service';
import { SitemapReader } from '../crawl/sitemap-reader.service';
import { ProxyPool } from '../render/proxy-pool';
import { mapLinks } from './map-links';

/** Sitemap URLs read at most, before scope, dedupe and ranking cut them to `limit`. */
const MAX_CANDIDATES = 100_000;
/** The start page's own fetch: the http engine, no browser, well within the map's time. */
const START_PAGE_TIMEOUT_MS = 10_000;

/**
 * POST /v1/map's work: the URLs of the start URL's site from robots.txt's Sitemap lines (else
 * /sitemap.xml), the sitemaps they lead to, and the start page's links, listed by mapLinks.
 * Nothing listed is fetched. Bounded by MAP_TIME_MS, the sitemap reader's file count and size
 * caps, and one fetch of robots.txt (cached with the crawls') and of the start page. All of it
 * goes through the map's `proxy`, chosen as a page's is.
 */
@Injectable()
export class SiteMapper {
  constructor(
    private readonly renderer: RenderService,
    private readonly robots: RobotsRules,
    private readonly sitemaps: SitemapReader,
    private readonly usage: UsageRecorder,
    private readonly sealed: SealedHeaders,
    private readonly proxies: ProxyPool,
  ) {}

  async map({ accountId, environment, url, settings }: MapData): Promise<MapResult> {
    const started = Date.now();
    const until = started + MAP_TIME_MS;
    const owner = { accountId, environment };
    const opened = this.sealed.open(settings, owner);
    const refused = this.proxies.refusal(opened);
    // Nothing goes out directly in place of a proxy the map cannot have: the API answers 503.
    if (refused) throw new Error(refused.message);
    const proxy = this.proxies.choose(opened, owner);
    const [pageLinks, sitemapUrls] = await Promise.all([
      this.startPageLinks(url, accountId, proxy),
      settings.ignore_sitemap ? [] : this.sitemapUrls(url, until, proxy),
    ]);
    const result = mapLinks(url, [...sitemapUrls, ...pageLinks], settings);
    // One request of the account's usage, whatever it listed.
    await this.usage.record(accountId, environment, { succeeded: true, renderMs: Date.now() - started });
    return result;
  }

  /** The start page's links; none when it fails (the sitemaps may still list the site). */
  private async startPageLinks(url: string, accountId: string, proxy: UpstreamProxy | undefined) {
    const page = await this.renderer.render({
      url,
      options: { ...SCRAPE_DEFAULTS, formats: ['links'], render: 'http', timeout: START_PAGE_TIMEOUT_MS },
      isolationKey: accountId,
      first: true,
      proxy,
    });
    return page.links ?? [];
  }

  private async sitemapUrls(url: string, until: number, proxy: UpstreamProxy | undefined) {
    const origin = new URL(url).origin;
    const listed = (await this.robots.forOrigin(origin, proxy)).sitemaps;
    return this.sitemaps.pageUrls(origin, listed, MAX_CANDIDATES, { until, proxy });
  }
}
