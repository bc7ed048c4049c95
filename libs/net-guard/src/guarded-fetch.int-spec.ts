import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { once } from 'node:events';
import { gzipSync } from 'node:zlib';
import { InvalidRequestError } from '@app/common';
import { createAddressPolicy } from './address-policy';
import { BlockedAddressError, DnsError, FetchFailedError } from './errors';
import { guardedFetch, type GuardedFetchOptions } from './guarded-fetch';
import { guardedLookup, type HostResolver } from './resolve-host';
import { listen, tableResolver } from '../test/loopback-kit';
import { loopbackCertificate } from '../../../test/fixtures/loopback-cert';

// Loopback only: 127.0.0.1/32 is open, other loopback spellings stand in for refused addresses.
const policy = createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] });
const table: Record<string, string[]> = { 'app.test': ['127.0.0.1'], 'evil.test': ['127.0.0.2'] };
const resolver: HostResolver = tableResolver(table);

async function failure(promise: Promise<unknown>): Promise<Error> {
  const err = await promise.then(
    () => undefined,
    (e: Error) => e,
  );
  if (!err) throw new Error('expected a failure');
  return err;
}

describe('guardedFetch', () => {
  const cert = loopbackCertificate();
  const servers: http.Server[] = [];
  const evilHits: string[] = [];
  let port: number;
  let httpsPort: number;
  let base: string;
  const fetch = (url: string, options: Partial<GuardedFetchOptions> = {}) =>
    guardedFetch(url, { policy, resolver, timeoutMs: 5000, ...options });

  beforeAll(async () => {
    const app = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        switch (url.pathname) {
          case '/redirect':
            res.writeHead(Number(url.searchParams.get('status') ?? 302), {
              location: url.searchParams.get('to')!,
            });
            return res.end();
          case '/echo':
            res.writeHead(200, { 'content-type': 'application/json' });
            return res.end(
              JSON.stringify({
                method: req.method,
                headers: req.headers,
                body: Buffer.concat(chunks).toString(),
              }),
            );
          case '/big':
            return res.end('x'.repeat(2000));
          case '/chunked-big':
            res.write('x'.repeat(1000));
            return res.end('x'.repeat(1000));
          case '/gzip':
            res.writeHead(200, { 'content-encoding': 'gzip' });
            return res.end(gzipSync('compressed hello'));
          case '/stall':
            return;
          case '/stall-body':
            res.writeHead(200);
            return res.write('partial');
          default:
            res.end(`hello from ${req.socket.localAddress}`);
        }
      });
    });
    port = await listen(app, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
    const secure = https.createServer(cert, (_req, res) => res.end('secure hello'));
    httpsPort = await listen(secure, '127.0.0.1');
    servers.push(app, secure);
    for (const host of ['127.0.0.2', '::1']) {
      const evil = http.createServer((req, res) => {
        evilHits.push(`${host} ${req.url}`);
        res.end('evil');
      });
      await listen(evil, host, port);
      servers.push(evil);
    }
  });

  afterAll(() => {
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  });

  afterEach(() => expect(evilHits).toEqual([]));

  it('fetches from an allowed address and reports the peer', async () => {
    const answer = await fetch(`http://app.test:${port}/hi`);
    expect(answer).toMatchObject({ status: 200, finalUrl: `http://app.test:${port}/hi`, redirects: [] });
    expect(answer.body.toString()).toBe('hello from 127.0.0.1');
    expect(answer.remoteAddress).toBe('127.0.0.1');
  });

  it.each([
    'http://127.0.0.2:PORT/',
    'http://[::1]:PORT/',
    'http://0x7f000002:PORT/',
    'http://foo.localhost:PORT/',
    'http://evil.test:PORT/',
  ])('refuses %s at connect time', async (target) => {
    const err = await failure(fetch(target.replace('PORT', String(port))));
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as BlockedAddressError).pageCode).toBe('BLOCKED_ADDRESS');
  });

  it('refuses a URL that is not http(s) before connecting', async () => {
    await expect(fetch(`ftp://127.0.0.1:${port}/`)).rejects.toThrow(InvalidRequestError);
  });

  it('vets every redirect hop', async () => {
    for (const to of [
      `http://127.0.0.2:${port}/x`,
      `http://evil.test:${port}/x`,
      `http://foo.localhost:${port}/x`,
    ]) {
      const err = await failure(
        fetch(`${base}/redirect?to=${encodeURIComponent(to)}`, { followRedirects: true }),
      );
      expect(err).toBeInstanceOf(BlockedAddressError);
    }
  });

  it('follows a chain of redirects up to the limit', async () => {
    const last = `http://app.test:${port}/end`;
    const second = `/redirect?status=301&to=${encodeURIComponent(last)}`;
    const first = `${base}/redirect?status=307&to=${encodeURIComponent(second)}`;
    const followed = await fetch(first, { followRedirects: true });
    expect(followed.status).toBe(200);
    expect(followed.finalUrl).toBe(last);
    expect(followed.redirects).toEqual([first, `${base}${second}`]);
    const limited = await fetch(first, { followRedirects: 1 });
    expect([limited.status, limited.finalUrl]).toEqual([301, `${base}${second}`]);
    const unfollowed = await fetch(first);
    expect([unfollowed.status, unfollowed.headers.location, unfollowed.redirects]).toEqual([307, second, []]);
  });

  it('answers with the 3xx when it points outside http(s)', async () => {
    const answer = await fetch(`${base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, {
      followRedirects: true,
    });
    expect(answer.status).toBe(302);
    expect(answer.redirects).toEqual([]);
  });

  it('turns POST into GET on 303, keeps it on 307, and drops credentials when the origin changes', async () => {
    const post = {
      method: 'POST',
      body: 'payload',
      headers: { 'content-type': 'text/plain', authorization: 'Bearer t' },
    };
    const seeOther = await fetch(`${base}/redirect?status=303&to=/echo`, { ...post, followRedirects: true });
    expect(JSON.parse(seeOther.body.toString())).toMatchObject({ method: 'GET', body: '' });
    expect(JSON.parse(seeOther.body.toString()).headers['content-type']).toBeUndefined();
    const temporary = await fetch(`${base}/redirect?status=307&to=/echo`, { ...post, followRedirects: true });
    const same = JSON.parse(temporary.body.toString());
    expect(same).toMatchObject({ method: 'POST', body: 'payload' });
    expect(same.headers.authorization).toBe('Bearer t');
    const to = encodeURIComponent(`http://app.test:${port}/echo`);
    const crossOrigin = JSON.parse(
      (
        await fetch(`${base}/redirect?status=307&to=${to}`, { ...post, followRedirects: true })
      ).body.toString(),
    );
    expect(crossOrigin).toMatchObject({ method: 'POST', body: 'payload' });
    expect(crossOrigin.headers.authorization).toBeUndefined();
  });

  it("sends originHeaders, over headers of any case, only on hops to the first URL's origin", async () => {
    const options = {
      headers: { 'X-Token': 'ours' },
      originHeaders: { 'x-token': 'customer' },
      followRedirects: true,
    };
    const echoed = async (url: string) =>
      JSON.parse((await fetch(url, options)).body.toString()).headers as Record<string, string>;
    expect((await echoed(`${base}/echo`))['x-token']).toBe('customer');
    // app.test is another origin of the same server.
    const elsewhere = `http://app.test:${port}/echo`;
    expect((await echoed(`${base}/redirect?to=${encodeURIComponent(elsewhere)}`))['x-token']).toBe('ours');
    const backHome = `http://app.test:${port}/redirect?to=${encodeURIComponent(`${base}/echo`)}`;
    expect((await echoed(`${base}/redirect?to=${encodeURIComponent(backHome)}`))['x-token']).toBe('customer');
  });

  it('resolves once per connection, so a rebinding name cannot move it', async () => {
    const calls: string[] = [];
    const rebinding: HostResolver = async (host) => {
      calls.push(host);
      return calls.length === 1 ? ['127.0.0.1'] : ['127.0.0.2'];
    };
    const first = await fetch(`http://rebind.test:${port}/`, { resolver: rebinding });
    expect([first.body.toString(), first.remoteAddress, calls.length]).toEqual([
      'hello from 127.0.0.1',
      '127.0.0.1',
      1,
    ]);
    await expect(fetch(`http://rebind.test:${port}/`, { resolver: rebinding })).rejects.toThrow(
      BlockedAddressError,
    );
  });

  it('gives DnsError, and FetchFailedError CONNECT when nothing listens', async () => {
    expect(await failure(fetch(`http://nowhere.test:${port}/`))).toBeInstanceOf(DnsError);
    const closed = net.createServer();
    const closedPort = await listen(closed, '127.0.0.1');
    closed.close();
    const err = await failure(fetch(`http://127.0.0.1:${closedPort}/`));
    expect(err).toBeInstanceOf(FetchFailedError);
    expect((err as FetchFailedError).pageCode).toBe('CONNECT');
  });

  it('speaks TLS to a trusted certificate and fails with TLS otherwise', async () => {
    const answer = await fetch(`https://127.0.0.1:${httpsPort}/`, { ca: cert.cert });
    expect(answer.body.toString()).toBe('secure hello');
    const err = await failure(fetch(`https://127.0.0.1:${httpsPort}/`));
    expect((err as FetchFailedError).pageCode).toBe('TLS');
  });

  it('times out on a silent server and on a stalled body', async () => {
    for (const path of ['/stall', '/stall-body']) {
      const started = Date.now();
      const err = await failure(fetch(`${base}${path}`, { timeoutMs: 300 }));
      expect((err as FetchFailedError).pageCode).toBe('TIMEOUT');
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it('caps the body, declared or not', async () => {
    for (const path of ['/big', '/chunked-big']) {
      const err = await failure(fetch(`${base}${path}`, { maxBytes: 1500 }));
      expect((err as FetchFailedError).pageCode).toBe('TOO_LARGE');
    }
    expect((await fetch(`${base}/big`, { maxBytes: 2000 })).body.length).toBe(2000);
  });

  it('decodes a compressed body', async () => {
    const answer = await fetch(`${base}/gzip`);
    expect(answer.body.toString()).toBe('compressed hello');
    expect(answer.headers['content-encoding']).toBeUndefined();
  });
});

describe('guardedLookup', () => {
  it('lets net.connect reach only vetted addresses, with or without address families chosen', async () => {
    const server = net.createServer((s) => s.end());
    const port = await listen(server, '127.0.0.1');
    try {
      for (const autoSelectFamily of [true, false]) {
        const ok = net.connect({
          host: 'app.test',
          port,
          lookup: guardedLookup(policy, resolver),
          autoSelectFamily,
        });
        await once(ok, 'connect');
        expect(ok.remoteAddress).toBe('127.0.0.1');
        ok.destroy();
        const refused = net.connect({
          host: 'evil.test',
          port,
          lookup: guardedLookup(policy, resolver),
          autoSelectFamily,
        });
        const [err] = (await once(refused, 'error')) as [Error];
        expect(err).toBeInstanceOf(BlockedAddressError);
      }
    } finally {
      server.close();
    }
  });
});
