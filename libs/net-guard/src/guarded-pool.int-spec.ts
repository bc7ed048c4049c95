import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { once } from 'node:events';
import { createAddressPolicy } from './address-policy';
import { BlockedAddressError, FetchFailedError } from './errors';
import { createGuardedAgents, type GuardedAgents, type PinnedRequestOptions } from './guarded-agent';
import { guardedFetch, type GuardedFetchOptions } from './guarded-fetch';
import type { HostResolver } from './resolve-host';
import { loopbackCertificate } from '../../../test/fixtures/loopback-cert';

// Loopback only: 127.0.0.1/32 is open, other loopback spellings stand in for refused addresses.
const policy = createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] });
const table: Record<string, string[]> = { 'app.test': ['127.0.0.1'], 'evil.test': ['127.0.0.2'] };
const resolver: HostResolver = async (host) => {
  if (table[host]) return table[host];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/** A server's connections: how many it accepted, which are open, and a wait for a number closed. */
function tracked<S extends net.Server>(server: S) {
  const open = new Set<net.Socket>();
  let accepted = 0;
  let closed = 0;
  const waiting: { count: number; done: () => void }[] = [];
  server.on('connection', (socket: net.Socket) => {
    accepted++;
    open.add(socket);
    socket.on('close', () => {
      open.delete(socket);
      closed++;
      for (const w of waiting.filter((w) => closed >= w.count)) w.done();
    });
  });
  return {
    server,
    accepted: () => accepted,
    open: () => open.size,
    closed: (count: number) =>
      new Promise<void>((done) => (closed >= count ? done() : waiting.push({ count, done }))),
  };
}

async function listen(server: net.Server, host: string, port = 0): Promise<number> {
  server.listen(port, host);
  await once(server, 'listening');
  return (server.address() as net.AddressInfo).port;
}

/** Idle sockets the agents keep, leaving out those already destroyed (removed on their close). */
const idleCount = (agents: GuardedAgents) =>
  [agents.http, agents.https]
    .flatMap((a) => Object.values(a.freeSockets).flat())
    .filter((socket) => socket && !socket.destroyed).length;

describe('guardedFetch through keep-alive guarded agents', () => {
  const cert = loopbackCertificate();
  const held: http.ServerResponse[] = [];
  // Answers /hold only once three requests wait, so three connections are open at once.
  const app = tracked(
    http.createServer((req, res) => {
      if (req.url !== '/hold') return res.end(`hello ${req.url}`);
      held.push(res);
      if (held.length === 3) for (const r of held.splice(0)) r.end('held');
    }),
  );
  const secure = tracked(https.createServer(cert, (_req, res) => res.end('secure hello')));
  const evil: ReturnType<typeof tracked<http.Server>>[] = [];
  let port: number;
  let httpsPort: number;
  const pools: GuardedAgents[] = [];
  const pool = (options: { maxIdleSockets?: number; idleMs?: number; resolver?: HostResolver } = {}) => {
    const agents = createGuardedAgents({ policy, resolver, keepAlive: true, ca: cert.cert, ...options });
    pools.push(agents);
    return agents;
  };
  const fetch = (url: string, agents: GuardedAgents, options: Partial<GuardedFetchOptions> = {}) =>
    guardedFetch(url, { policy, resolver, timeoutMs: 5000, agents, ...options });

  beforeAll(async () => {
    // The server never closes an idle connection itself: a close it sees is the client's.
    app.server.keepAliveTimeout = 0;
    port = await listen(app.server, '127.0.0.1');
    httpsPort = await listen(secure.server, '127.0.0.1');
    for (const host of ['127.0.0.2', '::1']) {
      const server = tracked(http.createServer((_req, res) => res.end('evil')));
      await listen(server.server, host, port);
      evil.push(server);
    }
  });

  afterEach(async () => {
    for (const agents of pools.splice(0)) {
      agents.http.destroy();
      agents.https.destroy();
    }
    // Each test counts from a server with no connection open.
    await Promise.all([app.closed(app.accepted()), secure.closed(secure.accepted())]);
    expect(evil.map((e) => e.accepted())).toEqual([0, 0]);
  });

  afterAll(() => {
    for (const { server } of [app, secure, ...evil]) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('reuses one connection across fetches, over http and https', async () => {
    const agents = pool();
    const [before, secureBefore] = [app.accepted(), secure.accepted()];
    for (let i = 0; i < 5; i++) {
      const answer = await fetch(`http://127.0.0.1:${port}/${i}`, agents);
      expect([answer.body.toString(), answer.remoteAddress]).toEqual([`hello /${i}`, '127.0.0.1']);
      expect((await fetch(`https://127.0.0.1:${httpsPort}/`, agents)).body.toString()).toBe('secure hello');
    }
    expect([app.accepted() - before, secure.accepted() - secureBefore]).toEqual([1, 1]);
  });

  it('gives a connection only to the origin and addresses it was opened for', async () => {
    const agents = pool();
    const before = app.accepted();
    for (let i = 0; i < 2; i++) {
      await fetch(`http://127.0.0.1:${port}/`, agents);
      // Another origin on the same server and address.
      await fetch(`http://app.test:${port}/`, agents);
    }
    expect(app.accepted() - before).toBe(2);
  });

  it.each([
    'http://127.0.0.2:PORT/',
    'http://[::1]:PORT/',
    'http://0x7f000002:PORT/',
    'http://foo.localhost:PORT/',
    'http://evil.test:PORT/',
  ])('refuses %s with allowed connections of the same port idle in the pool', async (target) => {
    const agents = pool();
    await fetch(`http://127.0.0.1:${port}/`, agents);
    await fetch(`http://app.test:${port}/`, agents);
    const err = await fetch(target.replace('PORT', String(port)), agents).catch((e: Error) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(idleCount(agents)).toBe(2);
  });

  it('resolves on every fetch, so a name rebound to a refused address does not ride its old connection', async () => {
    let calls = 0;
    const rebinding: HostResolver = async () => (++calls === 1 ? ['127.0.0.1'] : ['127.0.0.2']);
    const agents = pool({ resolver: rebinding });
    const first = await fetch(`http://rebind.test:${port}/`, agents, { resolver: rebinding });
    expect([first.body.toString(), idleCount(agents)]).toEqual(['hello /', 1]);
    await expect(fetch(`http://rebind.test:${port}/`, agents, { resolver: rebinding })).rejects.toThrow(
      BlockedAddressError,
    );
  });

  it('vets pinned addresses again when the agent connects', async () => {
    const agents = pool();
    const options: PinnedRequestOptions = {
      host: 'evil.test',
      port,
      agent: agents.http,
      pinned: ['127.0.0.2'],
    };
    const req = http.request(options).end();
    const [err] = (await once(req, 'error')) as [Error];
    expect(err).toBeInstanceOf(BlockedAddressError);
  });

  it('keeps at most maxIdleSockets idle over all origins, closing the longest idle first', async () => {
    const agents = pool({ maxIdleSockets: 2 });
    const before = app.accepted();
    const answers = await Promise.all([1, 2, 3].map(() => fetch(`http://127.0.0.1:${port}/hold`, agents)));
    expect(answers.map((a) => a.body.toString())).toEqual(['held', 'held', 'held']);
    await app.closed(before + 1);
    expect([idleCount(agents), app.open()]).toEqual([2, 2]);
    // Idle now, oldest first: two to 127.0.0.1; then app.test's and the https one come.
    await fetch(`http://app.test:${port}/`, agents);
    await fetch(`https://127.0.0.1:${httpsPort}/`, agents);
    await app.closed(before + 3);
    expect([idleCount(agents), app.open()]).toEqual([2, 1]);
    const reused = app.accepted();
    await fetch(`http://app.test:${port}/`, agents);
    expect(app.accepted()).toBe(reused);
  });

  it('closes a connection idle for idleMs', async () => {
    const agents = pool({ idleMs: 100 });
    const closedBefore = app.accepted();
    await fetch(`http://127.0.0.1:${port}/`, agents);
    expect(idleCount(agents)).toBe(1);
    await app.closed(closedBefore + 1);
    expect([idleCount(agents), app.open()]).toEqual([0, 0]);
  });
});

describe('a kept-alive connection the server closed', () => {
  // Answers the first request of each connection and resets the connection at the second.
  const server = net.createServer((socket) => {
    let requests = 0;
    socket.on('data', (chunk) => {
      if (!chunk.includes('\r\n\r\n')) return;
      if (++requests > 1) return socket.resetAndDestroy();
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok');
    });
  });
  const connections = tracked(server);
  let url: string;
  let agents: GuardedAgents;

  beforeAll(async () => {
    url = `http://127.0.0.1:${await listen(server, '127.0.0.1')}/`;
    agents = createGuardedAgents({ policy, keepAlive: true });
  });

  afterAll(() => {
    agents.http.destroy();
    server.close();
  });

  it('sends a GET again on a fresh connection, and fails a POST', async () => {
    const fetch = (method: string) => guardedFetch(url, { policy, agents, method, timeoutMs: 5000 });
    expect((await fetch('GET')).body.toString()).toBe('ok');
    expect((await fetch('GET')).body.toString()).toBe('ok');
    expect(connections.accepted()).toBe(2);
    const err = await fetch('POST').catch((e: Error) => e);
    expect(err).toBeInstanceOf(FetchFailedError);
    expect((err as FetchFailedError).pageCode).toBe('CONNECT');
  });
});

describe('a name that moves between allowed addresses', () => {
  const wide = createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32', '127.0.0.2/32'] });
  const servers = ['127.0.0.1', '127.0.0.2'].map((host) =>
    tracked(http.createServer((req, res) => res.end(`${host} ${req.url}`))),
  );
  let port: number;

  beforeAll(async () => {
    port = await listen(servers[0].server, '127.0.0.1');
    await listen(servers[1].server, '127.0.0.2', port);
  });

  afterAll(() => {
    for (const { server } of servers) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('gets a connection to its new address, not its idle one to the old', async () => {
    let calls = 0;
    const moving: HostResolver = async () => (++calls === 1 ? ['127.0.0.1'] : ['127.0.0.2']);
    const agents = createGuardedAgents({ policy: wide, resolver: moving, keepAlive: true });
    try {
      const fetch = () =>
        guardedFetch(`http://moving.test:${port}/`, { policy: wide, resolver: moving, agents });
      const answers = [await fetch(), await fetch()].map((a) => [a.body.toString(), a.remoteAddress]);
      expect(answers).toEqual([
        ['127.0.0.1 /', '127.0.0.1'],
        ['127.0.0.2 /', '127.0.0.2'],
      ]);
      expect(servers.map((s) => s.accepted())).toEqual([1, 1]);
    } finally {
      agents.http.destroy();
    }
  });
});
