import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAddressPolicy } from './address-policy';
import { startEgressProxy, type EgressProxy, type EgressRefusal } from './egress-proxy';
import { guardedFetch } from './guarded-fetch';
import { parseUpstreamProxy, type UpstreamProxy } from './upstream-proxy';
import { makeTestCertificate } from '../../../test/fixtures/https';
import { loopbackCertificate } from '../../../test/fixtures/loopback-cert';
import { startForwardProxy, startSocks5Proxy, type ForwardProxy } from '../../../test/fixtures/forward-proxy';

// Loopback only: 127.0.0.1/32 is the one open range, the other loopback spellings stand in for
// refused addresses.
const policy = createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] });
const CREDS = { username: 'alice', password: 's3cr:et' };

const cert = loopbackCertificate();
let target: http.Server;
let targetPort: number;
let secure: https.Server;
let securePort: number;
/** What the target saw: each request's headers and the port it came from. */
const seenByTarget: Array<{ headers: http.IncomingHttpHeaders; from: number | undefined }> = [];
const opened: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  target = http.createServer((req, res) => {
    seenByTarget.push({ headers: req.headers, from: req.socket.remotePort });
    res.end(`hello ${req.url}`);
  });
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  targetPort = (target.address() as net.AddressInfo).port;
  secure = https.createServer(cert, (req, res) => {
    seenByTarget.push({ headers: req.headers, from: req.socket.remotePort });
    res.end(`secure ${req.url}`);
  });
  secure.listen(0, '127.0.0.1');
  await once(secure, 'listening');
  securePort = (secure.address() as net.AddressInfo).port;
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
});

afterAll(async () => {
  target.close();
  secure.close();
  await Promise.all([once(target, 'close'), once(secure, 'close')]);
});

async function egressVia(
  upstream: UpstreamProxy,
  refusals: EgressRefusal[] = [],
  ca?: string,
): Promise<EgressProxy> {
  const egress = await startEgressProxy({
    policy,
    maxBytes: 1024 * 1024,
    upstream,
    onRefusal: (r) => refusals.push(r),
    ...(ca ? { ca } : {}),
  });
  opened.push(egress);
  return egress;
}

async function fixture(start: Promise<ForwardProxy>): Promise<ForwardProxy> {
  const proxy = await start;
  opened.push(proxy);
  return proxy;
}

/** A plain-HTTP GET through the egress proxy, in absolute form as a browser sends it. */
function get(egress: EgressProxy, url: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: egress.port, path: url, agent: false }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        })
        .on('error', reject);
    },
  );
}

/** CONNECT through the egress proxy, then a GET inside the tunnel; the CONNECT status and the answer. */
async function tunnelGet(egress: EgressProxy, authority: string): Promise<{ status: number; body: string }> {
  const socket = net.connect({ host: '127.0.0.1', port: egress.port });
  await once(socket, 'connect');
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n\r\n`);
  let text = '';
  socket.on('data', (c: Buffer) => {
    text += c.toString();
    if (text.startsWith('HTTP/1.1 200') && text.endsWith('\r\n\r\n')) {
      socket.write(`GET /tunnelled HTTP/1.1\r\nhost: ${authority}\r\nconnection: close\r\n\r\n`);
    }
  });
  await once(socket, 'close');
  return { status: Number(text.slice(9, 12)), body: text };
}

describe('egress through an upstream proxy', () => {
  it.each([
    ['http', () => startForwardProxy(CREDS), 'connect'],
    ['socks5', () => startSocks5Proxy(CREDS), 'socks5'],
  ])('carries plain requests and tunnels through a %s proxy with credentials', async (_, start, kind) => {
    const upstream = await fixture(start());
    const egress = await egressVia({ url: upstream.url, ...CREDS });

    const plain = await get(egress, `http://127.0.0.1:${targetPort}/plain`);
    expect(plain).toMatchObject({ status: 200, body: 'hello /plain' });
    const tunnelled = await tunnelGet(egress, `127.0.0.1:${targetPort}`);
    expect(tunnelled.status).toBe(200);
    expect(tunnelled.body).toContain('hello /tunnelled');

    const carried = { kind, target: `127.0.0.1:${targetPort}`, user: 'alice', accepted: true };
    expect(upstream.carried).toEqual([
      { ...carried, via: expect.any(Number) },
      { ...carried, via: expect.any(Number) },
    ]);
    // Both came from the proxy's connections, not from one of the egress proxy's own.
    expect(seenByTarget.slice(-2).map((s) => s.from)).toEqual(upstream.carried.map((c) => c.via));
    // The credentials are for the proxy hop only.
    expect(seenByTarget.at(-2)?.headers['proxy-authorization']).toBeUndefined();
  });

  it.each([
    ['http', () => startForwardProxy(CREDS)],
    ['socks5', () => startSocks5Proxy(CREDS)],
  ])('answers PROXY when a %s proxy refuses our credentials, without repeating them', async (_, start) => {
    const upstream = await fixture(start());
    const refusals: EgressRefusal[] = [];
    const egress = await egressVia(
      { url: upstream.url, username: 'alice', password: 'wrong-pass' },
      refusals,
    );

    const plain = await get(egress, `http://127.0.0.1:${targetPort}/plain`);
    expect(plain.status).toBe(502);
    expect(plain.headers['x-egress-blocked']).toBe('PROXY');
    expect(plain.body).not.toContain('wrong-pass');
    const tunnelled = await tunnelGet(egress, `127.0.0.1:${targetPort}`);
    expect(tunnelled.status).toBe(502);
    expect(refusals.map((r) => r.code)).toEqual(['PROXY', 'PROXY']);
    expect(JSON.stringify(refusals)).not.toContain('wrong-pass');
    expect(upstream.carried.every((c) => !c.accepted)).toBe(true);
  });

  it('answers PROXY when the upstream proxy cannot be reached', async () => {
    const closed = await startForwardProxy();
    await closed.close();
    const refusals: EgressRefusal[] = [];
    const egress = await egressVia({ url: closed.url }, refusals);
    const plain = await get(egress, `http://127.0.0.1:${targetPort}/plain`);
    expect(plain.headers['x-egress-blocked']).toBe('PROXY');
    expect(refusals[0].code).toBe('PROXY');
  });

  it.each([
    'http://127.0.0.2:3128',
    'http://[::1]:3128',
    'http://0x7f000002:3128',
    'socks5://proxy.localhost:1080',
  ])('refuses an upstream proxy at %s as BLOCKED_ADDRESS', async (url) => {
    const refusals: EgressRefusal[] = [];
    const egress = await egressVia({ url }, refusals);
    const plain = await get(egress, `http://127.0.0.1:${targetPort}/plain`);
    expect(plain.headers['x-egress-blocked']).toBe('BLOCKED_ADDRESS');
    expect(refusals.map((r) => r.code)).toEqual(['BLOCKED_ADDRESS']);
  });

  it('still vets the target: a refused one never reaches the upstream proxy', async () => {
    const upstream = await fixture(startForwardProxy(CREDS));
    const egress = await egressVia({ url: upstream.url, ...CREDS });
    for (const host of ['127.0.0.2', '[::1]', '0x7f000002', 'app.localhost']) {
      const plain = await get(egress, `http://${host}:${targetPort}/x`);
      expect(plain.headers['x-egress-blocked']).toBe('BLOCKED_ADDRESS');
      expect((await tunnelGet(egress, `${host}:${targetPort}`)).status).toBe(403);
    }
    expect(upstream.carried).toEqual([]);
  });
});

describe('parseUpstreamProxy', () => {
  it('takes credentials out of the URL and adds the default port', () => {
    expect(parseUpstreamProxy({ url: 'http://bob:p%40ss@127.0.0.1' })).toEqual({
      url: 'http://127.0.0.1:80',
      username: 'bob',
      password: 'p@ss',
    });
    expect(parseUpstreamProxy({ url: 'socks5://127.0.0.1', username: 'u' })).toEqual({
      url: 'socks5://127.0.0.1:1080',
      username: 'u',
    });
  });

  it.each([
    ['not a url', 'must be an absolute URL'],
    ['ftp://127.0.0.1:21', 'must be an http, https or socks5 URL'],
    ['socks4://127.0.0.1:1080', 'must be an http, https or socks5 URL'],
    ['http://127.0.0.1:3128/path', 'must have no path, query or fragment'],
    ['http://127.0.0.1:3128?q=1', 'must have no path, query or fragment'],
    ['http://:pw@127.0.0.1:3128', 'a password needs a username'],
  ])('refuses %s', (url, reason) => {
    expect(parseUpstreamProxy({ url })).toBe(reason);
  });

  it('refuses socks5 credentials over 255 bytes', () => {
    expect(parseUpstreamProxy({ url: 'socks5://127.0.0.1:1080', username: 'u'.repeat(256) })).toBe(
      'socks5 credentials are at most 255 bytes each',
    );
  });
});

describe('guardedFetch through an upstream proxy', () => {
  const fetchVia = (url: string, upstream: UpstreamProxy) =>
    guardedFetch(url, { policy, upstream, ca: cert.cert, timeoutMs: 5000 });

  it.each([
    ['http', () => startForwardProxy(CREDS), 'connect'],
    ['socks5', () => startSocks5Proxy(CREDS), 'socks5'],
  ])('fetches http and https targets through a %s proxy', async (_, start, kind) => {
    const upstream = await fixture(start());
    const plain = await fetchVia(`http://127.0.0.1:${targetPort}/a`, { url: upstream.url, ...CREDS });
    const tls = await fetchVia(`https://127.0.0.1:${securePort}/b`, { url: upstream.url, ...CREDS });
    expect([plain.body.toString(), tls.body.toString()]).toEqual(['hello /a', 'secure /b']);
    expect(upstream.carried.map((c) => [c.kind, c.target, c.user])).toEqual([
      [kind, `127.0.0.1:${targetPort}`, 'alice'],
      [kind, `127.0.0.1:${securePort}`, 'alice'],
    ]);
    expect(seenByTarget.slice(-2).map((s) => s.from)).toEqual(upstream.carried.map((c) => c.via));
  });

  it('fails with PROXY when the proxy refuses our credentials', async () => {
    const upstream = await fixture(startForwardProxy(CREDS));
    const err = await fetchVia(`http://127.0.0.1:${targetPort}/a`, {
      url: upstream.url,
      username: 'alice',
      password: 'wrong-pass',
    }).catch((e: Error & { pageCode?: string }) => e);
    expect(err).toMatchObject({ pageCode: 'PROXY' });
    expect((err as Error).message).not.toContain('wrong-pass');
  });

  it.each([
    'http://127.0.0.2:3128',
    'http://[::1]:3128',
    'http://0x7f000002:3128',
    'http://proxy.localhost:3128',
  ])('fails with BLOCKED_ADDRESS for a proxy at %s', async (url) => {
    const err = await fetchVia(`http://127.0.0.1:${targetPort}/a`, { url }).catch((e: Error) => e);
    expect(err).toMatchObject({ pageCode: 'BLOCKED_ADDRESS' });
  });

  it('vets the target before asking the proxy for it', async () => {
    const upstream = await fixture(startForwardProxy(CREDS));
    const err = await fetchVia(`http://127.0.0.2:${targetPort}/a`, { url: upstream.url, ...CREDS }).catch(
      (e: Error) => e,
    );
    expect(err).toMatchObject({ pageCode: 'BLOCKED_ADDRESS' });
    expect(upstream.carried).toEqual([]);
  });
});

describe('an https upstream proxy', () => {
  // The process's loopback certificate is the one trusted (`ca`); another one, made apart, is not.
  const trusted = () => startForwardProxy(CREDS, { tls: cert });
  const untrusted = () =>
    startForwardProxy(CREDS, {
      tls: makeTestCertificate({ dir: mkdtempSync(path.join(tmpdir(), 'untrusted-')) }),
    });
  const fetchVia = (url: string, upstream: UpstreamProxy) =>
    guardedFetch(url, { policy, upstream, ca: cert.cert, timeoutMs: 5000 });

  it('carries guardedFetch to http and https targets, over TLS to the proxy', async () => {
    const upstream = await fixture(trusted());
    expect(upstream.url).toMatch(/^https:/);
    const plain = await fetchVia(`http://127.0.0.1:${targetPort}/a`, { url: upstream.url, ...CREDS });
    const tls = await fetchVia(`https://127.0.0.1:${securePort}/b`, { url: upstream.url, ...CREDS });
    expect([plain.body.toString(), tls.body.toString()]).toEqual(['hello /a', 'secure /b']);
    expect(upstream.carried.map((c) => [c.kind, c.target, c.user, c.accepted])).toEqual([
      ['connect', `127.0.0.1:${targetPort}`, 'alice', true],
      ['connect', `127.0.0.1:${securePort}`, 'alice', true],
    ]);
    expect(seenByTarget.slice(-2).map((s) => s.from)).toEqual(upstream.carried.map((c) => c.via));
  });

  it("carries the egress proxy's plain requests and tunnels (the browsers' way)", async () => {
    const upstream = await fixture(trusted());
    const egress = await egressVia({ url: upstream.url, ...CREDS }, [], cert.cert);
    expect(await get(egress, `http://127.0.0.1:${targetPort}/plain`)).toMatchObject({
      status: 200,
      body: 'hello /plain',
    });
    expect((await tunnelGet(egress, `127.0.0.1:${securePort}`)).status).toBe(200);
    expect(upstream.carried.map((c) => [c.target, c.user, c.accepted])).toEqual([
      [`127.0.0.1:${targetPort}`, 'alice', true],
      [`127.0.0.1:${securePort}`, 'alice', true],
    ]);
  });

  it('fails with PROXY (407) without our credentials', async () => {
    const upstream = await fixture(trusted());
    const err = await fetchVia(`http://127.0.0.1:${targetPort}/a`, { url: upstream.url }).catch(
      (e: Error) => e,
    );
    expect(err).toMatchObject({ pageCode: 'PROXY', message: expect.stringContaining('407') });
    expect(upstream.carried).toEqual([
      { kind: 'connect', target: `127.0.0.1:${targetPort}`, user: undefined, accepted: false },
    ]);
  });

  it('fails with PROXY, naming the certificate, when the proxy is not trusted', async () => {
    const upstream = await fixture(untrusted());
    const err = await fetchVia(`http://127.0.0.1:${targetPort}/a`, { url: upstream.url, ...CREDS }).catch(
      (e: Error) => e,
    );
    expect(err).toMatchObject({
      pageCode: 'PROXY',
      message: expect.stringMatching(/TLS certificate was refused/),
    });
    const refusals: EgressRefusal[] = [];
    const egress = await egressVia({ url: upstream.url, ...CREDS }, refusals, cert.cert);
    const plain = await get(egress, `http://127.0.0.1:${targetPort}/plain`);
    expect(plain.headers['x-egress-blocked']).toBe('PROXY');
    expect(refusals[0].reason).toMatch(/TLS certificate was refused/);
    // The handshake failed before CONNECT: nothing was asked of it, no credentials were sent.
    expect(upstream.carried).toEqual([]);
  });
});
