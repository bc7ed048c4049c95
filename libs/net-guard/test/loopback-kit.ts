// Loopback servers and clients for the net-guard's integration tests: everything listens and dials
// on loopback only.
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { once } from 'node:events';
import type { EgressProxy } from '../src/egress-proxy';
import type { HostResolver } from '../src/resolve-host';

/** Writes 64 KiB chunks, honouring back-pressure, until `total` bytes or the client goes away. */
export async function stream(res: http.ServerResponse, total = Infinity): Promise<void> {
  const chunk = Buffer.alloc(65_536, 'z');
  for (let sent = 0; sent < total && !res.destroyed; sent += chunk.length) {
    if (res.write(chunk)) continue;
    // Both waits end together, so neither leaves a listener on the response for every chunk.
    const settled = new AbortController();
    const wait = (event: string) => once(res, event, { signal: settled.signal }).catch(() => undefined);
    await Promise.race([wait('drain'), wait('close')]);
    settled.abort();
  }
  if (!res.destroyed) res.end();
}

/** Reads a response to its end or until the connection is cut; the bytes read and how it ended. */
export async function drain(res: http.IncomingMessage): Promise<{ bytes: number; cut: boolean }> {
  let bytes = 0;
  try {
    for await (const chunk of res) bytes += (chunk as Buffer).length;
    return { bytes, cut: false };
  } catch {
    return { bytes, cut: true };
  }
}

export async function listen(server: net.Server, host: string, port = 0): Promise<number> {
  server.listen(port, host);
  await once(server, 'listening');
  return (server.address() as net.AddressInfo).port;
}

export const tableResolver =
  (table: Record<string, string[]>): HostResolver =>
  async (host) => {
    if (table[host]) return table[host];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  reusedSocket: boolean;
}

/** A plain-HTTP request through the proxy, in absolute form as a browser sends it. */
export function viaProxy(
  proxy: EgressProxy,
  target: string,
  init: { method?: string; body?: Buffer; agent?: http.Agent } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: proxy.port, path: target, method: init.method ?? 'GET', agent: init.agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            reusedSocket: req.reusedSocket,
          }),
        );
      },
    );
    req.setHeader('host', new URL(target).host);
    req.on('error', reject);
    req.end(init.body);
  });
}

/** CONNECT through the proxy; the socket is the tunnel when the status is 200. */
export function connectVia(proxy: EgressProxy, authority: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; socket: net.Socket; head: Buffer }>(
    (resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: authority });
      req.on('connect', (res: http.IncomingMessage, socket: net.Socket, head: Buffer) =>
        resolve({ status: res.statusCode!, headers: res.headers, socket, head }),
      );
      req.on('error', reject);
      req.end();
    },
  );
}

/** One GET over TLS inside a tunnel, trusting only the test certificate. */
export async function getOverTunnel(socket: net.Socket, ca: string): Promise<string> {
  const secure = tls.connect({ socket, ca, host: '127.0.0.1' });
  await once(secure, 'secureConnect');
  secure.end('GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n');
  const chunks: Buffer[] = [];
  for await (const chunk of secure) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}
