import { Injectable } from '@nestjs/common';
import type { Environment } from '@app/persistence';
import { SecretBox } from '@app/persistence';
import type { ProxySettings, ScrapeOptions } from '@app/queue-contracts';

interface Owner {
  accountId: string;
  environment: Environment;
}

/**
 * The caller's `headers` and own `proxy` (its credentials) are secrets: options leave the API with them sealed under
 * SECRETS_ENCRYPTION_KEY (the jobs row, a sync scrape's queue payload), and only the worker opens
 * them, for the render. Bound to the account and environment, so a sealed value copied into
 * another account's job does not open.
 */
@Injectable()
export class SealedHeaders {
  constructor(private readonly box: SecretBox) {}

  /**
   * The options with `headers` replaced by `sealed_headers` and an own `proxy` by `sealed_proxy`
   * (unchanged without either).
   */
  seal<T extends Partial<ScrapeOptions>>(options: T, owner: Owner): T {
    const { headers, proxy, ...rest } = options;
    const sealed: Partial<ScrapeOptions> = { ...rest };
    if (headers) sealed.sealed_headers = this.box.seal(JSON.stringify(headers), context('headers', owner));
    if (typeof proxy === 'object')
      sealed.sealed_proxy = this.box.seal(JSON.stringify(proxy), context('proxy', owner));
    else if (proxy) sealed.proxy = proxy;
    return sealed as T;
  }

  /** The options with `sealed_headers` and `sealed_proxy` opened back; throws if they were altered. */
  open<T extends Partial<ScrapeOptions>>(options: T, owner: Owner): T {
    const { sealed_headers: headers, sealed_proxy: proxy, ...rest } = options;
    const opened: Partial<ScrapeOptions> = { ...rest };
    if (headers) {
      opened.headers = JSON.parse(this.box.open(headers, context('headers', owner))) as Record<
        string,
        string
      >;
    }
    if (proxy) opened.proxy = JSON.parse(this.box.open(proxy, context('proxy', owner))) as ProxySettings;
    return opened as T;
  }
}

const context = (what: 'headers' | 'proxy', { accountId, environment }: Owner) =>
  `${what}:${accountId}:${environment}`;
