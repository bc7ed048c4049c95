import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { AddressPolicy } from './address-policy';
import { BlockedAddressError, DnsError } from './errors';
import { bareHost, defaultResolver, pinnedLookup, resolveAllowed, type HostResolver } from './resolve-host';
import { dialUpstream, ProxyError, type UpstreamProxy } from './upstream-proxy';

export type EgressRefusalCode = 'BLOCKED_ADDRESS' | 'DNS' | 'CONNECT' | 'TOO_LARGE' | 'PROXY';

/** One request or tunnel the proxy did not carry or cut short, and why (the code is a page error code). */
export interface EgressRefusal {
  code: EgressRefusalCode;
  host: string;
  port: number;
  reason: string;
}

export interface EgressProxyOptions {
  policy: AddressPolicy;
  resolver?: HostResolver;
  host?: string;
  port?: number;
  /**
   * Told of every refusal. Chromium reports a refused CONNECT only as ERR_TUNNEL_CONNECTION_FAILED,
   * so this is how the browser side learns that an https request was BLOCKED_ADDRESS.
   */
  onRefusal?: (refusal: EgressRefusal) => void;
  /**
   * Most bytes carried from a target to the browser over one plain-HTTP response or one CONNECT
   * tunnel (the proxy cannot see the responses inside TLS). A declared content-length over it is
   * refused before the body (502, TOO_LARGE); a stream that passes it is cut there.
   * WorkerEnv.EGRESS_MAX_BYTES in the worker.
   */
  maxBytes: number;
  /**
   * Every request and tunnel goes on through this proxy (Chromium's proxy flag takes no
   * credentials and no SOCKS5 authentication, so this hop is ours). Targets are vetted all the
   * same, and so is the upstream's own address, at connect time.
   */
  upstream?: UpstreamProxy;
  /** Trusted CAs for an https `upstream` instead of the system store (tests; NODE_EXTRA_CA_CERTS adds to it). */
  ca?: string | Buffer | Array<string | Buffer>;
}

/**
 * allowed: requests and tunnels that passed the policy; blocked: refused by it; failed: DNS or
 * connect; cut: answers and tunnels refused or cut at maxBytes.
 */
export interface EgressStats {
  allowed: number;
  blocked: number;
  failed: number;
  cut: number;
}

export interface EgressProxy {
  /** For Chromium's --proxy-server (with --proxy-bypass-list=<-loopback>). */
  url: string;
  port: number;
  stats(): EgressStats;
  close(): Promise<void>;
}

const STATUS: Record<EgressRefusalCode, [number, string]> = {
  BLOCKED_ADDRESS: [403, 'Forbidden'],
  DNS: [502, 'Bad Gateway'],
  CONNECT: [502, 'Bad Gateway'],
  TOO_LARGE: [502, 'Bad Gateway'],
  PROXY: [502, 'Bad Gateway'],
};

// RFC 9110 section 7.6.1: these describe one connection and are not forwarded.
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.includes(name) && !named.includes(name)) out[name] = value;
  }
  return out;
}

/**
 * Pipes source into target, cutting both (destroying them) when more than `limit` bytes have come:
 * the chunk that crosses the limit is not passed on. A counter on source's own data events, not a
 * Transform in a pipeline(), which cost a stream, an AbortController and an AbortError a response
 * (docs/decisions.md, "Network policy").
 */
function pipeCapped(source: Readable, target: Writable, limit: number, onExceeded: () => void): void {
  let seen = 0;
  // Registered before pipe()'s own listener, so it runs first on each chunk.
  source.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen <= limit) return;
    onExceeded();
    source.destroy();
    target.destroy();
  });
  source.pipe(target);
}

/**
 * The browser's only way out (docs/decisions.md, Network policy): a forward proxy for plain HTTP
 * (absolute-form requests) and CONNECT tunnels that resolves each host once, vets every address,
 * and dials only those addresses, so DNS rebinding cannot move a connection to a refused one.
 */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const { policy, resolver = defaultResolver, onRefusal, maxBytes, upstream: via, ca } = options;
  const counts: EgressStats = { allowed: 0, blocked: 0, failed: 0, cut: 0 };
  // Keyed by host name; a pooled socket goes to an address vetted when it was opened.
  const upstreamAgent = new http.Agent({ keepAlive: true });
  const tunnels = new Set<net.Socket>();

  function refusal(code: EgressRefusalCode, host: string, port: number, reason: string): EgressRefusal {
    if (code === 'BLOCKED_ADDRESS') counts.blocked++;
    else if (code === 'TOO_LARGE') counts.cut++;
    else counts.failed++;
    const refused = { code, host, port, reason };
    onRefusal?.(refused);
    return refused;
  }

  /** The vetted addresses of host, or the refusal to answer with. */
  async function vet(host: string, port: number): Promise<string[] | EgressRefusal> {
    try {
      const addresses = await resolveAllowed(host, policy, resolver);
      counts.allowed++;
      return addresses;
    } catch (err) {
      if (err instanceof BlockedAddressError) return refusal('BLOCKED_ADDRESS', host, port, err.message);
      if (err instanceof DnsError) return refusal('DNS', host, port, err.message);
      throw err;
    }
  }

  /**
   * A socket to the vetted target through the upstream proxy, or the refusal: the upstream's own
   * address refused (BLOCKED_ADDRESS, DNS) or the upstream failing (PROXY).
   */
  async function dialVia(upstream: UpstreamProxy, host: string, port: number, address: string) {
    try {
      return await dialUpstream(upstream, { host: address, port }, { policy, resolver, ca });
    } catch (err) {
      if (err instanceof BlockedAddressError)
        return refusal('BLOCKED_ADDRESS', host, port, `proxy: ${err.message}`);
      if (err instanceof DnsError) return refusal('DNS', host, port, `proxy: ${err.message}`);
      if (err instanceof ProxyError) return refusal('PROXY', host, port, err.message);
      throw err;
    }
  }

  function refuseRequest(res: http.ServerResponse, r: EgressRefusal): void {
    const [status] = STATUS[r.code];
    res
      .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-egress-blocked': r.code })
      .end(`Refused by the egress policy: ${r.reason}\n`);
  }

  function refuseTunnel(client: net.Socket, r: EgressRefusal): void {
    const [status, text] = STATUS[r.code];
    const body = `Refused by the egress policy: ${r.reason}\n`;
    client.end(
      `HTTP/1.1 ${status} ${text}\r\nx-egress-blocked: ${r.code}\r\ncontent-type: text/plain; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }

  async function forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('A proxy request needs an absolute http:// URL\n');
      return;
    }
    if (target.protocol !== 'http:') {
      res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('Only http:// is proxied; use CONNECT for TLS\n');
      return;
    }
    const host = bareHost(target.hostname);
    const port = Number(target.port || 80);
    const vetted = await vet(host, port);
    if (!Array.isArray(vetted)) return refuseRequest(res, vetted);

    // Through an upstream proxy, a tunnel of its own: never a pooled socket of a direct request.
    let tunnelled: net.Socket | undefined;
    if (via) {
      const dialed = await dialVia(via, host, port, vetted[0]);
      if (!(dialed instanceof net.Socket)) return refuseRequest(res, dialed);
      tunnelled = dialed;
    }
    // Set when the browser side went away first: the upstream error that follows is our own destroy.
    let browserGone = false;
    const send = (retry: boolean) => {
      const upstream = http.request({
        host,
        port,
        method: req.method,
        path: target.pathname + target.search,
        headers: { ...endToEnd(req.headers), host: target.host },
        ...(tunnelled
          ? { createConnection: () => tunnelled }
          : { agent: upstreamAgent, lookup: pinnedLookup(vetted) }),
      });
      // A tunnel comes paused (its CONNECT answer was read off it): flowing once the parser listens.
      if (tunnelled) upstream.once('socket', (socket) => socket.resume());
      upstream.on('response', (answer) => {
        const tooLarge = (what: string) =>
          refusal('TOO_LARGE', host, port, `${what} exceeds ${maxBytes} bytes`);
        if (Number(answer.headers['content-length']) > maxBytes) {
          answer.destroy();
          return refuseRequest(res, tooLarge(`the answer's content-length`));
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
        // Past the cap, or when the target cuts the answer short, the browser sees the connection cut.
        answer.on('close', () => {
          if (!answer.complete) res.destroy();
        });
        pipeCapped(answer, res, maxBytes, () => tooLarge('the answer'));
      });
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (browserGone) return;
        if (res.headersSent) return res.destroy();
        // A pooled socket the target closed while idle fails at once; Node's documented answer
        // (request.reusedSocket) is to send a bodiless request again on a fresh one.
        if (retry && upstream.reusedSocket && err.code === 'ECONNRESET') return send(false);
        refuseRequest(res, refusal('CONNECT', host, port, err.message));
      });
      // The browser gave up (navigation, abort): stop the upstream transfer too.
      res.on('close', () => {
        if (res.writableFinished) return;
        browserGone = true;
        upstream.destroy();
      });
      if (bodiless) upstream.end();
      else req.pipe(upstream);
    };
    const bodiless = req.method === 'GET' || req.method === 'HEAD';
    if (bodiless) req.resume();
    send(bodiless);
  }

  async function tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer): Promise<void> {
    tunnels.add(client);
    client.on('close', () => tunnels.delete(client));
    client.on('error', () => client.destroy());
    // CONNECT's target is host:port (RFC 9110 9.3.6); the URL parser normalises the host as a browser would.
    let target: URL | undefined;
    try {
      if (/:\d+$/.test(req.url ?? '')) target = new URL(`http://${req.url}`);
    } catch {
      target = undefined;
    }
    if (!target || target.pathname !== '/' || target.search) {
      client.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const host = bareHost(target.hostname);
    // The URL parser drops :80, the one port it considers default for http.
    const port = Number(target.port || 80);
    const vetted = await vet(host, port);
    if (!Array.isArray(vetted)) return refuseTunnel(client, vetted);
    if (client.destroyed) return;

    const dialed = via ? await dialVia(via, host, port, vetted[0]) : undefined;
    if (dialed && !(dialed instanceof net.Socket)) return refuseTunnel(client, dialed);
    if (client.destroyed) {
      dialed?.destroy();
      return;
    }
    const upstream = dialed ?? net.connect({ host, port, lookup: pinnedLookup(vetted) });
    let established = false;
    tunnels.add(upstream);
    // Normal ends travel through the pipes (half-close included); only a failure cuts the other side.
    upstream.on('close', () => tunnels.delete(upstream));
    client.on('close', () => upstream.destroy());
    const establish = () => {
      established = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      pipeCapped(upstream, client, maxBytes, () =>
        refusal('TOO_LARGE', host, port, `the tunnel exceeds ${maxBytes} bytes`),
      );
      client.pipe(upstream);
    };
    // A socket through the upstream proxy is connected already.
    if (dialed) establish();
    else upstream.once('connect', establish);
    upstream.on('error', (err) => {
      if (established) client.destroy();
      else refuseTunnel(client, refusal('CONNECT', host, port, err.message));
    });
  }

  const server = http.createServer();
  const fail = (err: unknown, destroy: () => void) => {
    // Only a bug gets here (vet rethrows what is not a refusal): drop the one connection.
    destroy();
    process.emitWarning(`egress proxy: ${String(err)}`);
  };
  server.on('request', (req, res) => {
    forward(req, res).catch((err) => fail(err, () => res.destroy()));
  });
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    tunnel(req, socket, head).catch((err) => fail(err, () => socket.destroy()));
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { address, port } = server.address() as net.AddressInfo;

  return {
    url: `http://${net.isIPv6(address) ? `[${address}]` : address}:${port}`,
    port,
    stats: () => ({ ...counts }),
    close: async () => {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      for (const socket of tunnels) socket.destroy();
      upstreamAgent.destroy();
      await closed;
    },
  };
}
