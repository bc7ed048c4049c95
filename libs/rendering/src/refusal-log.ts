import type { EgressRefusal, EgressRefusalCode } from '@app/net-guard';

/** Long enough to cover one navigation; refusals older than this are forgotten. */
const KEEP_MS = 120_000;

/**
 * Recent refusals of the egress proxy, by host and port. Chromium reports a refused CONNECT only as
 * ERR_TUNNEL_CONNECTION_FAILED, and a page could fake the proxy's x-egress-blocked header on its own
 * 403: the log tells which refusals really happened.
 */
export class RefusalLog {
  private readonly byTarget = new Map<string, { refusal: EgressRefusal; at: number }>();

  record = (refusal: EgressRefusal): void => {
    const now = Date.now();
    for (const [key, entry] of this.byTarget) {
      if (now - entry.at > KEEP_MS) this.byTarget.delete(key);
    }
    this.byTarget.set(key(refusal.host, refusal.port), { refusal, at: now });
  };

  /** The proxy's refusal of the URL's host and port, if it refused one lately. */
  find(url: string): EgressRefusal | undefined {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return undefined;
    }
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    const entry = this.byTarget.get(key(host, port));
    return entry && Date.now() - entry.at <= KEEP_MS ? entry.refusal : undefined;
  }

  /** The refusal code when the proxy refused this URL's host with `code` (as a header claims). */
  confirms(url: string, code: string | undefined): EgressRefusalCode | undefined {
    const refusal = code ? this.find(url) : undefined;
    return refusal && refusal.code === code ? refusal.code : undefined;
  }
}

const key = (host: string, port: number) => `${host.toLowerCase()}|${port}`;
