import net from 'node:net';
import tls from 'node:tls';
import { once } from 'node:events';
import { SocksClient } from 'socks';
import type { AddressPolicy } from './address-policy';
import { resolveAllowed, type HostResolver } from './resolve-host';
import { trusting } from './trust';

/** A proxy our egress goes through: an operator's (PROXY_URLS) or a customer's own. */
export interface UpstreamProxy {
  /** http:, https: or socks5: with host and port; credentials are in the fields below, not here. */
  url: string;
  username?: string;
  password?: string;
}

export const UPSTREAM_PROTOCOLS = ['http:', 'https:', 'socks5:'];

/** The upstream proxy refused our credentials or the tunnel, or could not be reached: page error PROXY. */
export class ProxyError extends Error {
  readonly pageCode = 'PROXY';
  constructor(message: string) {
    super(message);
    this.name = 'ProxyError';
  }
}

/**
 * Parses a proxy URL, taking credentials out of it (`http://user:pass@host:port`) unless given
 * apart; the reason it is refused otherwise. The reason never repeats the URL, which may hold
 * credentials.
 */
export function parseUpstreamProxy(proxy: UpstreamProxy): UpstreamProxy | string {
  let url: URL;
  try {
    url = new URL(proxy.url);
  } catch {
    return 'must be an absolute URL';
  }
  if (!UPSTREAM_PROTOCOLS.includes(url.protocol)) return 'must be an http, https or socks5 URL';
  if (!url.hostname) return 'must name a host';
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    return 'must have no path, query or fragment';
  }
  const username = proxy.username ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const password = proxy.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
  if (password !== undefined && username === undefined) return 'a password needs a username';
  // SOCKS5 user/password authentication (RFC 1929) carries each in at most 255 bytes.
  if (url.protocol === 'socks5:' && [username, password].some((s) => s && Buffer.byteLength(s) > 255)) {
    return 'socks5 credentials are at most 255 bytes each';
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '1080');
  return {
    url: `${url.protocol}//${url.hostname}:${port}`,
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
  };
}

/** How the proxy's own address is vetted and, for an https proxy, whom its certificate must chain to. */
export interface UpstreamDial {
  policy: AddressPolicy;
  resolver?: HostResolver;
  /** Trusted CAs for an https proxy instead of the system store (tests; NODE_EXTRA_CA_CERTS adds to it). */
  ca?: string | Buffer | Array<string | Buffer>;
}

/** host:port as a CONNECT request target, IPv6 in brackets. */
function authority(host: string, port: number): string {
  return `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/** Reads a CONNECT answer's head and leaves the socket paused; bytes after the head (already the tunnel's) are put back. */
function connectAnswer(socket: net.Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const done = (result: number | Error, rest?: Buffer) => {
      socket.off('data', onData).off('end', onEnd).off('error', onEnd);
      socket.pause();
      if (rest?.length) socket.unshift(rest);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onEnd = (err?: Error) =>
      done(new ProxyError(`the proxy closed the connection during CONNECT${err ? `: ${err.message}` : ''}`));
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffered.length > 16_384)
          done(new ProxyError('the proxy answered CONNECT with an oversized head'));
        return;
      }
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(buffered.toString('latin1'));
      if (!status) return done(new ProxyError('the proxy answered CONNECT with no HTTP status'));
      done(Number(status[1]), buffered.subarray(end + 4));
    };
    socket.on('data', onData).on('end', onEnd).on('error', onEnd);
  });
}

/** A CONNECT tunnel through an http(s) proxy whose vetted address is `address`. */
async function httpTunnel(
  proxy: URL,
  address: string,
  creds: UpstreamProxy,
  target: string,
  ca: UpstreamDial['ca'],
): Promise<net.Socket> {
  const port = Number(proxy.port);
  const socket: net.Socket =
    proxy.protocol === 'https:'
      ? tls.connect({
          host: address,
          port,
          servername: net.isIP(proxy.hostname) ? undefined : proxy.hostname,
          ...trusting(ca),
        })
      : net.connect({ host: address, port });
  try {
    await once(socket, proxy.protocol === 'https:' ? 'secureConnect' : 'connect');
    const auth =
      creds.username !== undefined
        ? `proxy-authorization: Basic ${Buffer.from(`${creds.username}:${creds.password ?? ''}`).toString('base64')}\r\n`
        : '';
    socket.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n${auth}\r\n`);
    const status = await connectAnswer(socket);
    if (status === 407) throw new ProxyError('the proxy refused our credentials (407)');
    if (status < 200 || status > 299) throw new ProxyError(`the proxy refused the tunnel (${status})`);
    return socket;
  } catch (err) {
    socket.destroy();
    if (err instanceof ProxyError) throw err;
    const { code, message } = err as NodeJS.ErrnoException;
    // Said apart: a caller whose proxy has a private CA needs to know it is the certificate.
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code ?? ''))
      throw new ProxyError(`the proxy's TLS certificate was refused: ${message}`);
    throw new ProxyError(`the proxy failed: ${message}`);
  }
}

/**
 * A socket to target host:port through the upstream proxy. The proxy's own address is vetted by
 * the policy (BlockedAddressError, DnsError), and only a vetted address is dialed; the target
 * given here must be one the caller vetted already. The proxy failing or refusing is a ProxyError.
 */
export async function dialUpstream(
  upstream: UpstreamProxy,
  target: { host: string; port: number },
  { policy, resolver, ca }: UpstreamDial,
): Promise<net.Socket> {
  const proxy = new URL(upstream.url);
  const [address] = await resolveAllowed(proxy.hostname, policy, resolver);
  if (proxy.protocol !== 'socks5:') {
    return httpTunnel(proxy, address, upstream, authority(target.host, target.port), ca);
  }
  try {
    const { socket } = await SocksClient.createConnection({
      proxy: {
        host: address,
        port: Number(proxy.port),
        type: 5,
        ...(upstream.username !== undefined
          ? { userId: upstream.username, password: upstream.password ?? '' }
          : {}),
      },
      command: 'connect',
      destination: { host: target.host, port: target.port },
    });
    return socket;
  } catch (err) {
    throw new ProxyError(`the socks5 proxy failed: ${(err as Error).message}`);
  }
}
