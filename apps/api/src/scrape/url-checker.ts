import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestError } from '@app/common';
import { ApiEnv } from '@app/config';
import type { ProxyChoice } from '@app/queue-contracts';
import {
  AddressPolicy,
  BlockedAddressError,
  DnsError,
  HOST_RESOLVER,
  HostResolver,
  assertAllowed,
  knownAddresses,
  parseTargetUrl,
  parseUpstreamProxy,
  vetUrl,
} from '@app/net-guard';

const REFUSED_ADDRESS = 'points at an address this service may not reach';

/**
 * Refuses at job creation what can never be fetched: bad schemes, credentials, and hosts that are
 * (or resolve to) refused addresses. A name that does not resolve is let through: DNS may change
 * before the page runs, and the page then reports DNS. The connection itself is vetted again.
 */
@Injectable()
export class UrlChecker {
  constructor(
    private readonly policy: AddressPolicy,
    @Inject(HOST_RESOLVER) private readonly resolver: HostResolver,
    private readonly env: ApiEnv,
  ) {}

  /**
   * Refuses a `proxy` that can never be used: `pool` without PROXY_URLS, a URL that is not a
   * proxy's, one at a literal or localhost address the policy refuses. A name is judged when the
   * page connects (BLOCKED_ADDRESS then). Reasons never repeat the URL, which may hold credentials.
   */
  proxy(choice: ProxyChoice | undefined): void {
    if (choice === 'pool' && this.env.PROXY_URLS.length === 0) {
      throw InvalidRequestError.field('proxy', 'this service has no proxy pool (PROXY_URLS is not set)');
    }
    if (typeof choice !== 'object') return;
    const parsed = parseUpstreamProxy(choice);
    if (typeof parsed === 'string') throw InvalidRequestError.field('proxy.url', parsed);
    if (!this.literalHostAllowed(new URL(parsed.url).hostname)) {
      throw InvalidRequestError.field('proxy.url', REFUSED_ADDRESS);
    }
  }

  async target(raw: unknown, field = 'url'): Promise<string> {
    const url = parseTargetUrl(raw, { kind: 'target', field });
    await this.vet(url, field);
    return url.href;
  }

  /**
   * For batches of up to a million URLs: a synchronous check without DNS, for one batch. Only
   * literal addresses and localhost names are judged here; other names are vetted when their page
   * is fetched. A host's verdict depends on nothing else, and a batch names few hosts many times,
   * so each host is judged once per batch.
   */
  batchTargets(): (raw: unknown, field: string) => string {
    const allowed = new Map<string, boolean>();
    return (raw, field) => {
      const url = parseTargetUrl(raw, { kind: 'target', field });
      let verdict = allowed.get(url.hostname);
      if (verdict === undefined) {
        verdict = this.literalHostAllowed(url.hostname);
        allowed.set(url.hostname, verdict);
      }
      if (!verdict) throw InvalidRequestError.field(field, REFUSED_ADDRESS);
      return url.href;
    };
  }

  private literalHostAllowed(hostname: string): boolean {
    const known = knownAddresses(hostname);
    if (!known) return true;
    try {
      assertAllowed(hostname, known, this.policy);
      return true;
    } catch (err) {
      if (err instanceof BlockedAddressError) return false;
      throw err;
    }
  }

  async webhook(raw: unknown): Promise<string> {
    const url = parseTargetUrl(raw, { kind: 'webhook', field: 'webhook_url' });
    await this.vet(url, 'webhook_url');
    return url.href;
  }

  private async vet(url: URL, field: string): Promise<void> {
    try {
      await vetUrl(url, this.policy, this.resolver);
    } catch (err) {
      if (err instanceof DnsError) return;
      throw this.refusal(err, field);
    }
  }

  private refusal(err: unknown, field: string): unknown {
    return err instanceof BlockedAddressError ? InvalidRequestError.field(field, REFUSED_ADDRESS) : err;
  }
}
