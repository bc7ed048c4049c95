import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { WorkerEnv } from '@app/config';
import { parseUpstreamProxy, type UpstreamProxy } from '@app/net-guard';
import type { ScrapeOptions } from '@app/queue-contracts';

/**
 * How a job's own fetches beside its pages (robots.txt, sitemaps) go out: through `proxy`, or
 * directly when it is undefined; null when its pages are refused their proxy (ProxyPool.refusal),
 * so nothing goes out directly instead.
 */
export type SiteRoute = { proxy: UpstreamProxy | undefined } | null;

/** Whose page it is: a session's pool proxy is chosen per account, environment and session id. */
interface Owner {
  accountId: string;
  environment: string;
}

/**
 * The upstream proxy of a page: the caller's own, none, or one of the operator's PROXY_URLS (the
 * default when set), round robin per page and the same one for every page of a session, so a
 * site sees a session come from one address.
 */
@Injectable()
export class ProxyPool {
  private readonly pool: UpstreamProxy[];
  private turn = 0;

  constructor(env: WorkerEnv) {
    // The config check took the URL's form; one that still does not parse is left out, unnamed (it may hold credentials).
    this.pool = env.PROXY_URLS.map((url) => parseUpstreamProxy({ url })).filter(
      (p): p is UpstreamProxy => typeof p !== 'string',
    );
  }

  /**
   * Why a page cannot have the proxy it asked for: `proxy: "pool"` on a worker without PROXY_URLS
   * (the API that took it has them). It fails with PROXY rather than going out directly.
   */
  refusal(options: Pick<ScrapeOptions, 'proxy'>): { code: 'PROXY'; message: string } | null {
    if (options.proxy !== 'pool' || this.pool.length > 0) return null;
    return { code: 'PROXY', message: 'the page asked for proxy "pool", and the worker has no PROXY_URLS' };
  }

  /** The way out of a job's site files: the proxy one of its pages would take (options opened). */
  siteRoute(options: Pick<ScrapeOptions, 'proxy' | 'session_id'>, owner: Owner): SiteRoute {
    return this.refusal(options) ? null : { proxy: this.choose(options, owner) };
  }

  /** The options opened (SealedHeaders.open): a caller's own proxy is in clear here. */
  choose(options: Pick<ScrapeOptions, 'proxy' | 'session_id'>, owner: Owner): UpstreamProxy | undefined {
    const choice = options.proxy;
    if (choice === 'none') return undefined;
    if (typeof choice === 'object') {
      const own = parseUpstreamProxy(choice);
      // The API refused a malformed one; a sealed value cannot have been altered since.
      if (typeof own === 'string') throw new Error(`the page's proxy is invalid: ${own}`);
      return own;
    }
    if (this.pool.length === 0) return undefined;
    if (options.session_id === undefined) return this.pool[this.turn++ % this.pool.length];
    const digest = createHash('sha256')
      .update(`${owner.accountId}\u0000${owner.environment}\u0000${options.session_id}`)
      .digest();
    return this.pool[digest.readUInt32BE(0) % this.pool.length];
  }
}
