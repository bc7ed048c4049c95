import { Injectable } from '@nestjs/common';
import { UsageRecorder } from '@app/auth';
import { SealedHeaders } from '@app/jobs';
import { type MapData, type MapResult } from '@app/queue-contracts';
import { RenderService } from '@app/rendering';
import { MAP_START_PAGE_OPTIONS, SitemapReader, mapSite } from '@app/site';
import { RobotsRules } from '../crawl/robots-rules.service';
import { ProxyPool } from '../render/proxy-pool';

/**
 * POST /v1/map on a worker: `mapSite` (libs/site) with robots.txt cached with the crawls', through
 * the map's `proxy`, chosen as a page's is, and one request of the account's usage.
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
    const owner = { accountId, environment };
    const opened = this.sealed.open(settings, owner);
    const refused = this.proxies.refusal(opened);
    // Nothing goes out directly in place of a proxy the map cannot have: the API answers 503.
    if (refused) throw new Error(refused.message);
    const proxy = this.proxies.choose(opened, owner);
    const startPageLinks = async (pageUrl: string) => {
      const page = await this.renderer.render({
        url: pageUrl,
        options: MAP_START_PAGE_OPTIONS,
        isolationKey: accountId,
        first: true,
        proxy,
      });
      return page.links ?? [];
    };
    const robots = (origin: string) => this.robots.forOrigin(origin, proxy);
    const result = await mapSite(url, settings, { startPageLinks, robots, sitemaps: this.sitemaps }, proxy);
    // One request of the account's usage, whatever it listed.
    await this.usage.record(accountId, environment, { succeeded: true, renderMs: Date.now() - started });
    return result;
  }
}
