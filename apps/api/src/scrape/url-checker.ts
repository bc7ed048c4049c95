import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestError } from '@app/common';
import {
  AddressPolicy,
  BlockedAddressError,
  DnsError,
  HOST_RESOLVER,
  HostResolver,
  parseTargetUrl,
  vetUrl,
} from '@app/net-guard';

const unresolved: HostResolver = (host) => Promise.reject(new DnsError(`${host} is resolved when fetched`));

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
  ) {}

  /**
   * With `resolve: false` (batches of up to a million URLs) only literal addresses and localhost
   * names are judged here; names are vetted when their page is fetched.
   */
  async target(raw: unknown, field = 'url', { resolve = true } = {}): Promise<string> {
    const url = parseTargetUrl(raw, { kind: 'target', field });
    await this.vet(url, field, resolve ? this.resolver : unresolved);
    return url.href;
  }

  async webhook(raw: unknown): Promise<string> {
    const url = parseTargetUrl(raw, { kind: 'webhook', field: 'webhook_url' });
    await this.vet(url, 'webhook_url', this.resolver);
    return url.href;
  }

  private async vet(url: URL, field: string, resolver: HostResolver): Promise<void> {
    try {
      await vetUrl(url, this.policy, resolver);
    } catch (err) {
      if (err instanceof DnsError) return;
      if (err instanceof BlockedAddressError) {
        throw InvalidRequestError.field(field, 'points at an address this service may not reach');
      }
      throw err;
    }
  }
}
