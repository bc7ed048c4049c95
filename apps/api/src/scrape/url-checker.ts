import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestError } from '@app/common';
import {
  AddressPolicy,
  BlockedAddressError,
  DnsError,
  HOST_RESOLVER,
  HostResolver,
  assertAllowed,
  knownAddresses,
  parseTargetUrl,
  vetUrl,
} from '@app/net-guard';

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

  async target(raw: unknown, field = 'url'): Promise<string> {
    const url = parseTargetUrl(raw, { kind: 'target', field });
    await this.vet(url, field);
    return url.href;
  }

  /**
   * For batches of up to a million URLs: synchronous, no DNS. Only literal addresses and localhost
   * names are judged here; other names are vetted when their page is fetched.
   */
  targetWithoutDns(raw: unknown, field: string): string {
    const url = parseTargetUrl(raw, { kind: 'target', field });
    const known = knownAddresses(url.hostname);
    if (known) {
      try {
        assertAllowed(url.hostname, known, this.policy);
      } catch (err) {
        throw this.refusal(err, field);
      }
    }
    return url.href;
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
    return err instanceof BlockedAddressError
      ? InvalidRequestError.field(field, 'points at an address this service may not reach')
      : err;
  }
}
