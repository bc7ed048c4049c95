import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { once } from 'node:events';
import { chromium } from 'playwright-core';
import { createAddressPolicy } from './address-policy';
import { startEgressProxy, type EgressProxy, type EgressRefusal } from './egress-proxy';
import type { HostResolver } from './resolve-host';
import {
  connectVia,
  drain,
  getOverTunnel,
  listen,
  stream,
  tableResolver,
  viaProxy,
} from '../test/loopback-kit';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../../test/fixtures/chromium';
import { loopbackCertificate } from '../../../test/fixtures/loopback-cert';

// Everything here listens and dials on loopback only; 127.0.0.1/32 is the one open range, the other
// loopback spellings stand in for refused addresses.
const policy = createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] });

/** The proxy's byte cap here; the echo test's 3 MiB body stays under it. */
const MAX_BYTES = 4 * 1024 * 1024;

describe('egress proxy', () => {
  const cert = loopbackCertificate();
  const servers: net.Server[] = [];
  /** Requests that reached a server on a refused address: must stay empty. */
  const evilHits: string[] = [];
  let port: number;
  let httpsPort: number;
  let closedPort: number;
  let proxy: EgressProxy;
  const refusals: EgressRefusal[] = [];
  const started: EgressProxy[] = [];

  const start = async (resolver: HostResolver) => {
    const p = await startEgressProxy({ policy, resolver, maxBytes: MAX_BYTES });
    started.push(p);
    return p;
  };

  beforeAll(async () => {
    const good = http.createServer((req, res) => {
      if (req.url === '/echo') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        req.pipe(res);
      } else if (req.url === '/page') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          `<!doctype html><title>Fixture</title><h1>Fixture</h1>` +
            `<img id="plain" src="http://127.0.0.2:${port}/x.png">` +
            `<img id="tls" src="https://127.0.0.2:${httpsPort}/x.png">` +
            `<iframe src="http://foo.localhost:${port}/"></iframe>`,
        );
      } else if (req.url === '/endless') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        void stream(res);
      } else if (req.url === '/cut-short') {
        // Promises more than it sends, then drops the connection.
        res.writeHead(200, { 'content-length': '100000' });
        res.write('x'.repeat(1000), () => res.socket?.destroy());
      } else if (req.url === '/declared-too-large') {
        res.writeHead(200, { 'content-length': String(MAX_BYTES + 1) });
        void stream(res, MAX_BYTES + 1);
      } else res.end(`hello from ${req.socket.localAddress} ${req.url}`);
    });
    port = await listen(good, '127.0.0.1');
    const secure = https.createServer(cert, (req, res) => {
      if (req.url === '/endless') void stream(res);
      else res.end('secure hello');
    });
    httpsPort = await listen(secure, '127.0.0.1');
    servers.push(good, secure);
    // The same ports on refused loopback addresses, so that a wrongly dialed request would be seen.
    const evil = (req: http.IncomingMessage, res: http.ServerResponse) => {
      evilHits.push(`${req.socket.localAddress} ${req.url}`);
      res.end('evil');
    };
    for (const [host, p] of [
      ['127.0.0.2', port],
      ['::1', port],
      ['127.0.0.2', httpsPort],
    ] as const) {
      const server = p === httpsPort ? https.createServer(cert, evil) : http.createServer(evil);
      await listen(server, host, p);
      servers.push(server);
    }
    const closed = net.createServer();
    closedPort = await listen(closed, '127.0.0.1');
    closed.close();

    proxy = await startEgressProxy({
      policy,
      maxBytes: MAX_BYTES,
      resolver: tableResolver({ 'app.test': ['127.0.0.1'], 'evil.test': ['127.0.0.2'] }),
      onRefusal: (r) => refusals.push(r),
    });
    started.push(proxy);
  });

  afterAll(async () => {
    await Promise.all(started.map((p) => p.close()));
    for (const s of servers) s.close();
  });

  afterEach(() => expect(evilHits).toEqual([]));

  describe('plain HTTP', () => {
    it('carries requests to an allowed address and to a name resolving to it', async () => {
      const direct = await viaProxy(proxy, `http://127.0.0.1:${port}/a?b=1`);
      expect(direct).toMatchObject({ status: 200, body: 'hello from 127.0.0.1 /a?b=1' });
      const named = await viaProxy(proxy, `http://app.test:${port}/n`);
      expect(named).toMatchObject({ status: 200, body: 'hello from 127.0.0.1 /n' });
      expect(named.headers['x-egress-blocked']).toBeUndefined();
    });

    it('streams request and response bodies', async () => {
      const body = Buffer.alloc(3 * 1024 * 1024, 'x');
      const answer = await viaProxy(proxy, `http://127.0.0.1:${port}/echo`, { method: 'POST', body });
      expect(answer.status).toBe(200);
      expect(answer.body.length).toBe(body.length);
    });

    it('keeps the browser connection alive between requests', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const first = await viaProxy(proxy, `http://127.0.0.1:${port}/1`, { agent });
      const second = await viaProxy(proxy, `http://127.0.0.1:${port}/2`, { agent });
      agent.destroy();
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.reusedSocket).toBe(true);
    });

    it.each([
      [`http://127.0.0.2:PORT/x.png`, '127.0.0.2'],
      [`http://[::1]:PORT/`, '::1'],
      [`http://[::ffff:127.0.0.2]:PORT/`, '::ffff:7f00:2'],
      [`http://0x7f000002:PORT/`, '127.0.0.2'],
      [`http://foo.localhost:PORT/`, 'foo.localhost'],
      [`http://evil.test:PORT/`, 'evil.test'],
    ])('refuses %s with 403 and x-egress-blocked', async (target, host) => {
      const before = proxy.stats().blocked;
      const answer = await viaProxy(proxy, target.replace('PORT', String(port)));
      expect(answer.status).toBe(403);
      expect(answer.headers['x-egress-blocked']).toBe('BLOCKED_ADDRESS');
      expect(answer.body).toMatch(/^Refused by the egress policy: /);
      expect(proxy.stats().blocked).toBe(before + 1);
      expect(refusals.at(-1)).toMatchObject({ code: 'BLOCKED_ADDRESS', host, port });
    });

    it('cuts the browser connection when the target cuts its answer short', async () => {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http
          .get({ host: '127.0.0.1', port: proxy.port, path: `http://127.0.0.1:${port}/cut-short` }, resolve)
          .on('error', reject),
      );
      expect(res.statusCode).toBe(200);
      const read = await drain(res);
      expect(read).toEqual({ bytes: 1000, cut: true });
      expect(await viaProxy(proxy, `http://127.0.0.1:${port}/after`)).toMatchObject({ status: 200 });
    });

    it('answers 502 DNS for a name that does not resolve and 502 CONNECT when nothing listens', async () => {
      const dns = await viaProxy(proxy, `http://nowhere.test:${port}/`);
      expect(dns.status).toBe(502);
      expect(dns.headers['x-egress-blocked']).toBe('DNS');
      const refused = await viaProxy(proxy, `http://127.0.0.1:${closedPort}/`);
      expect(refused.status).toBe(502);
      expect(refused.headers['x-egress-blocked']).toBe('CONNECT');
    });

    it('sends a GET again when the target closed the pooled connection it reused', async () => {
      // Answers the first request of each connection and drops the connection at the second: the
      // race of a target closing an idle keep-alive connection just as the proxy reuses it.
      let connections = 0;
      const closing = net.createServer((socket) => {
        connections++;
        let requests = 0;
        socket.on('data', () => {
          if (++requests === 1) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
          else socket.destroy();
        });
      });
      servers.push(closing);
      const closingPort = await listen(closing, '127.0.0.1');
      const before = { refusals: refusals.length, failed: proxy.stats().failed };
      const first = await viaProxy(proxy, `http://127.0.0.1:${closingPort}/one`);
      const second = await viaProxy(proxy, `http://127.0.0.1:${closingPort}/two`);
      expect([first, second].map((a) => [a.status, a.body])).toEqual([
        [200, 'ok'],
        [200, 'ok'],
      ]);
      expect(connections).toBe(2);
      expect({ refusals: refusals.length, failed: proxy.stats().failed }).toEqual(before);
    });

    it('records no refusal when the browser gives up on a request first', async () => {
      let arrived!: () => void;
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      const upstreamClosed = new Promise<void>((resolve) => {
        const hanging = http.createServer((req) => {
          req.socket.on('close', () => resolve());
          arrived();
        });
        servers.push(hanging);
        void listen(hanging, '127.0.0.1').then((hangingPort) => {
          const req = http.request({
            host: '127.0.0.1',
            port: proxy.port,
            path: `http://127.0.0.1:${hangingPort}/never`,
          });
          req.on('error', () => undefined);
          req.end();
          void reached.then(() => req.destroy());
        });
      });
      const before = { refusals: refusals.length, failed: proxy.stats().failed };
      await upstreamClosed;
      // The proxy's upstream error handler runs on the tick after the close.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect({ refusals: refusals.length, failed: proxy.stats().failed }).toEqual(before);
    });

    it('refuses a request that is not in absolute form', async () => {
      const answer = await new Promise<number>((resolve, reject) =>
        http
          .get({ host: '127.0.0.1', port: proxy.port, path: '/' }, (res) => resolve(res.statusCode!))
          .on('error', reject),
      );
      expect(answer).toBe(400);
    });
  });

  describe('CONNECT', () => {
    it('tunnels to an allowed address, TLS end to end', async () => {
      const tunnel = await connectVia(proxy, `127.0.0.1:${httpsPort}`);
      expect(tunnel.status).toBe(200);
      expect(await getOverTunnel(tunnel.socket, cert.cert)).toMatch(/\r\n\r\nsecure hello$/);
    });

    it.each([
      '127.0.0.2:PORT',
      '[::1]:PORT',
      '[::ffff:127.0.0.2]:PORT',
      '2130706434:PORT',
      'foo.localhost:PORT',
      'evil.test:PORT',
    ])('refuses %s with 403 and x-egress-blocked', async (authority) => {
      const tunnel = await connectVia(proxy, authority.replace('PORT', String(httpsPort)));
      tunnel.socket.destroy();
      expect(tunnel.status).toBe(403);
      expect(tunnel.headers['x-egress-blocked']).toBe('BLOCKED_ADDRESS');
      expect(refusals.at(-1)).toMatchObject({ code: 'BLOCKED_ADDRESS', port: httpsPort });
    });

    it('answers 502 with DNS or CONNECT', async () => {
      const dns = await connectVia(proxy, `nowhere.test:${httpsPort}`);
      const refused = await connectVia(proxy, `127.0.0.1:${closedPort}`);
      dns.socket.destroy();
      refused.socket.destroy();
      expect([dns.status, dns.headers['x-egress-blocked']]).toEqual([502, 'DNS']);
      expect([refused.status, refused.headers['x-egress-blocked']]).toEqual([502, 'CONNECT']);
    });

    it('refuses a CONNECT target without a port', async () => {
      const tunnel = await connectVia(proxy, '127.0.0.1');
      tunnel.socket.destroy();
      expect(tunnel.status).toBe(400);
    });
  });

  describe('byte cap', () => {
    it('cuts a plain-HTTP answer at maxBytes and goes on serving', async () => {
      const before = proxy.stats().cut;
      const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http
          .get({ host: '127.0.0.1', port: proxy.port, path: `http://127.0.0.1:${port}/endless` }, resolve)
          .on('error', reject),
      );
      expect(res.statusCode).toBe(200);
      const read = await drain(res);
      expect(read.cut).toBe(true);
      expect(read.bytes).toBeGreaterThan(MAX_BYTES / 2);
      expect(read.bytes).toBeLessThanOrEqual(MAX_BYTES);
      expect(proxy.stats().cut).toBe(before + 1);
      expect(refusals.at(-1)).toMatchObject({ code: 'TOO_LARGE', host: '127.0.0.1', port });
      expect(await viaProxy(proxy, `http://127.0.0.1:${port}/after`)).toMatchObject({ status: 200 });
    });

    it('refuses an answer whose content-length exceeds maxBytes with 502 and x-egress-blocked', async () => {
      const answer = await viaProxy(proxy, `http://127.0.0.1:${port}/declared-too-large`);
      expect(answer.status).toBe(502);
      expect(answer.headers['x-egress-blocked']).toBe('TOO_LARGE');
      expect(refusals.at(-1)).toMatchObject({ code: 'TOO_LARGE', host: '127.0.0.1', port });
    });

    it('cuts a CONNECT tunnel at maxBytes from the target', async () => {
      const before = proxy.stats().cut;
      const tunnel = await connectVia(proxy, `127.0.0.1:${httpsPort}`);
      expect(tunnel.status).toBe(200);
      const secure = tls.connect({ socket: tunnel.socket, ca: cert.cert, host: '127.0.0.1' });
      await once(secure, 'secureConnect');
      secure.write('GET /endless HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
      let bytes = 0;
      secure.on('data', (chunk: Buffer) => (bytes += chunk.length));
      secure.on('error', () => undefined);
      await once(tunnel.socket, 'close');
      secure.destroy();
      // What arrived is decrypted payload, a little less than the ciphertext the cap counts.
      expect(bytes).toBeGreaterThan(MAX_BYTES / 2);
      expect(bytes).toBeLessThanOrEqual(MAX_BYTES);
      expect(proxy.stats().cut).toBe(before + 1);
      expect(refusals.at(-1)).toMatchObject({ code: 'TOO_LARGE', port: httpsPort });
    });
  });

  describe('DNS rebinding', () => {
    /** Answers 127.0.0.1 the first time, then 127.0.0.2: a check-then-resolve-again proxy would be fooled. */
    const rebinding = () => {
      const calls: string[] = [];
      const resolver: HostResolver = async (host) => {
        calls.push(host);
        return calls.length === 1 ? ['127.0.0.1'] : ['127.0.0.2'];
      };
      return { calls, resolver };
    };

    it('dials the address it vetted for plain HTTP', async () => {
      const { calls, resolver } = rebinding();
      const p = await start(resolver);
      const first = await viaProxy(p, `http://rebind.test:${port}/r`);
      expect(first).toMatchObject({ status: 200, body: 'hello from 127.0.0.1 /r' });
      expect(calls).toEqual(['rebind.test']);
      const second = await viaProxy(p, `http://rebind.test:${port}/r`);
      expect(second.status).toBe(403);
      expect(calls).toEqual(['rebind.test', 'rebind.test']);
      expect(p.stats()).toEqual({ allowed: 1, blocked: 1, failed: 0, cut: 0 });
    });

    it('dials the address it vetted for CONNECT', async () => {
      const { calls, resolver } = rebinding();
      const p = await start(resolver);
      const tunnel = await connectVia(p, `rebind.test:${httpsPort}`);
      expect(tunnel.status).toBe(200);
      expect(await getOverTunnel(tunnel.socket, cert.cert)).toMatch(/secure hello$/);
      expect(calls).toEqual(['rebind.test']);
    });
  });

  it('is the only way out for Chromium: a page on 127.0.0.1 loads, its loopback-spelled subresources are refused', async () => {
    const seen: EgressRefusal[] = [];
    // No name on the page needs DNS; an empty table keeps any stray lookup off the network.
    const withRefusals = await startEgressProxy({
      policy,
      maxBytes: MAX_BYTES,
      resolver: tableResolver({}),
      onRefusal: (r) => seen.push(r),
    });
    started.push(withRefusals);
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_FLAGS, '--proxy-bypass-list=<-loopback>'],
      proxy: { server: withRefusals.url },
    });
    try {
      const page = await browser.newPage();
      const response = await page.goto(`http://127.0.0.1:${port}/page`, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      expect(await page.textContent('h1')).toBe('Fixture');
      // The images failed to load (naturalWidth 0), and the iframe got the proxy's refusal.
      expect(await page.$eval('#plain', (img) => (img as HTMLImageElement).naturalWidth)).toBe(0);
      const hosts = seen.map((r) => `${r.code} ${r.host}:${r.port}`).sort();
      expect(hosts).toEqual(
        expect.arrayContaining([
          `BLOCKED_ADDRESS 127.0.0.2:${port}`,
          `BLOCKED_ADDRESS 127.0.0.2:${httpsPort}`,
          `BLOCKED_ADDRESS foo.localhost:${port}`,
        ]),
      );
      expect(withRefusals.stats().allowed).toBeGreaterThanOrEqual(1);
      expect(withRefusals.stats().blocked).toBeGreaterThanOrEqual(3);
    } finally {
      await browser.close();
    }
  });
});
