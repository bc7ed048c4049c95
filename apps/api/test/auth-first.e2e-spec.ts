import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { ApiKeysService, generateApiKey } from '@app/auth';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { startApiProcess } from '../../../test/support/processes';

const MiB = 1024 * 1024;
const UNAUTHORIZED = { detail: 'Missing or invalid API key', code: 'unauthorized' };

/** A well-formed key whose checksum is wrong: one character of the body changed. */
const badChecksum = (key: string) => key.slice(0, 12) + (key[12] === 'a' ? 'b' : 'a') + key.slice(13);

/**
 * Authentication before the body (docs/decisions.md, "HTTP layer"), against the real API on a real
 * socket: refused callers cost neither the body nor a MySQL query, failures per client address are
 * limited, and slow clients are cut by the timeouts.
 */
describe('authentication before the body', () => {
  let api: ApiHarness;
  let base: string;
  let port: number;
  let account: TestAccount;
  let mysqlConnections: jest.SpyInstance;

  beforeAll(async () => {
    api = await startApi({
      AUTH_FAIL_LIMIT_PER_MIN: '30',
      TRUST_PROXY: '127.0.0.1',
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      // The large bodies below are made and read in this process: on a loaded CI machine one took
      // past 2 s to arrive, and the timeout answered 408 instead of the 401.
      HTTP_REQUEST_TIMEOUT_MS: '10000',
    });
    await api.app.listen(0, '127.0.0.1');
    port = (api.app.getHttpServer().address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    account = await createAccount(api);
    // Every statement the API sends MySQL takes a connection from this pool first.
    const driver = api.app.get(DataSource).driver as MysqlDriver;
    mysqlConnections = jest.spyOn(driver.pool as { getConnection: () => void }, 'getConnection');
  });
  afterAll(async () => api.close());
  afterEach(() => mysqlConnections.mockClear());

  const me = (key: string, from: string) =>
    fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': from } });

  /** `bytes` of JSON-ish filler, made as it is sent, so the test holds none of it. */
  const lazyBody = (bytes: number) => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let produced = 0;
    return Readable.from(
      (function* () {
        while (produced < bytes) {
          produced += chunk.length;
          yield chunk;
        }
      })(),
    );
  };

  // A body read in full would hold all of its BODY_MB in the process at once. A body refused and
  // drained leaves garbage chunks behind until V8's external-memory trigger (64 MiB) collects them,
  // so the growth allowed is half the body: far from both.
  const BODY_MB = 256;
  const GROWTH_LIMIT_MIB = BODY_MB / 2;

  it('answers a 256 MB body with a wrong key by 401 at once, without buffering it', async () => {
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      for (const authorization of ['', `Bearer ${generateApiKey('production').key}`]) {
        const res = await fetch(`${base}/v1/scrape/batch/async`, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/json',
            'content-length': String(BODY_MB * MiB),
          },
          body: lazyBody(BODY_MB * MiB),
          duplex: 'half',
        } as unknown as RequestInit);
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual(UNAUTHORIZED);
      }
    } finally {
      clearInterval(sampler);
    }
    expect((peak - baseline) / MiB).toBeLessThan(GROWTH_LIMIT_MIB);
  });

  it('keeps the API process under 128 MiB of peak growth for a 256 MB body with a wrong key', async () => {
    const proc = await startApiProcess({});
    try {
      const status = (field: string) =>
        Number(
          new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
            readFileSync(`/proc/${proc.child.pid}/status`, 'utf8'),
          )![1],
        ) * 1024;
      const wrongKey = (bytes: number) =>
        fetch(`http://127.0.0.1:${proc.port}/v1/scrape/batch/async`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${generateApiKey('production').key}`,
            'content-type': 'application/json',
            'content-length': String(bytes),
          },
          body: lazyBody(bytes),
          duplex: 'half',
        } as unknown as RequestInit);
      // A first small request on the same path, so what its first use loads and connects (the key
      // lookup's pool, lazily compiled code) is not counted as the body's.
      expect((await wrongKey(64 * 1024)).status).toBe(401);
      // Resets the process's peak RSS (VmHWM) to what it holds now, so start-up's peak does not hide growth.
      writeFileSync(`/proc/${proc.child.pid}/clear_refs`, '5');
      const before = status('VmRSS');
      const res = await wrongKey(BODY_MB * MiB);
      expect(res.status).toBe(401);
      await res.text();
      expect((status('VmHWM') - before) / MiB).toBeLessThan(GROWTH_LIMIT_MIB);
    } finally {
      proc.child.kill('SIGKILL');
      await proc.exited;
    }
  });

  it('lets a client that sends the whole body anyway read its 401', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${base}/v1/scrape/batch/async`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(100 * MiB) },
      });
      req.on('response', (res) => resolve(res.statusCode!));
      req.on('error', reject);
      lazyBody(100 * MiB).pipe(req);
    });
    expect(status).toBe(401);
  });

  it('refuses a key with a bad checksum, customer or admin, without a MySQL query', async () => {
    const resolve = jest.spyOn(api.app.get(ApiKeysService), 'resolve');
    const customer = await me(badChecksum(account.liveKey), '192.0.2.1');
    expect(customer.status).toBe(401);
    expect(await customer.json()).toEqual(UNAUTHORIZED);
    const admin = await fetch(`${base}/admin/v1/accounts`, {
      headers: { authorization: `Bearer ${badChecksum(generateApiKey('admin').key)}` },
    });
    expect(admin.status).toBe(401);
    expect(resolve).not.toHaveBeenCalled();
    expect(mysqlConnections).not.toHaveBeenCalled();
    resolve.mockRestore();
  });

  it('asks MySQL about an unknown well-formed key once, then remembers it is unknown', async () => {
    const unknown = generateApiKey('production').key;
    for (let i = 0; i < 3; i++) expect((await me(unknown, '192.0.2.2')).status).toBe(401);
    expect(mysqlConnections).toHaveBeenCalledTimes(1);
  });

  it('answers the 31st failure from one address with 429 before any query; known keys keep working', async () => {
    const client = '198.51.100.7';
    await me(account.liveKey, client).then((r) => expect(r.status).toBe(200));
    for (let i = 0; i < 30; i++) {
      const res = await me(generateApiKey('production').key, client);
      expect(res.status).toBe(401);
    }
    mysqlConnections.mockClear();
    const refused = await me(generateApiKey('production').key, client);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ detail: 'Rate limit exceeded', code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(mysqlConnections).not.toHaveBeenCalled();
    // Malformed keys and admin routes count as well.
    expect((await me('nope', client)).status).toBe(429);
    const admin = await fetch(`${base}/admin/v1/accounts`, {
      headers: { authorization: `Bearer ${generateApiKey('admin').key}`, 'x-forwarded-for': client },
    });
    expect(admin.status).toBe(429);
    // A key that worked before is not slowed, and another address is not affected.
    expect((await me(account.liveKey, client)).status).toBe(200);
    expect((await me(generateApiKey('production').key, '198.51.100.8')).status).toBe(401);
  });

  it('lets a key that worked on one replica through another replica for a blocked address', async () => {
    const other = await startApi({ AUTH_FAIL_LIMIT_PER_MIN: '30', TRUST_PROXY: '127.0.0.1' });
    try {
      await other.app.listen(0, '127.0.0.1');
      const otherBase = `http://127.0.0.1:${(other.app.getHttpServer().address() as AddressInfo).port}`;
      const client = '198.51.100.9';
      const used = await createAccount(api);
      const unused = await createAccount(api);
      expect((await me(used.liveKey, client)).status).toBe(200);
      for (let i = 0; i < 31; i++) await me(generateApiKey('production').key, client);
      const onOther = (key: string) =>
        fetch(`${otherBase}/v1/me`, {
          headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': client },
        });
      expect((await onOther(used.liveKey)).status).toBe(200);
      // A key nobody has seen work waits like any other attempt from that address.
      expect((await onOther(unused.liveKey)).status).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('refuses a body over its route limit with 413 once the key is good', async () => {
    const res = await fetch(`${base}/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.liveKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(100 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      detail: 'Request body is too large: at most 64 KB',
      code: 'payload_too_large',
    });
  });

  /** Sends `head`, then drips `drip` a byte at a time; what the server answered, once it closed. */
  const slowClient = (head: string, drip = '') =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      let i = 0;
      const timer = setInterval(() => i < drip.length && socket.write(drip[i++]), 300);
      socket.on('data', (d) => (answer += d.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        resolve(answer);
      });
      socket.on('connect', () => socket.write(head));
      setTimeout(() => reject(new Error('the server kept the slow client')), 20_000).unref();
    });

  it('cuts a client that sends its headers too slowly, and one that drips its body', async () => {
    const headers = await slowClient('GET /healthz HTTP/1.1\r\nHost: x\r\n', 'x-slow: 1234567890123\r\n');
    expect(headers).toMatch(/^HTTP\/1\.1 408 /);
    const body = await slowClient(
      `POST /v1/keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.liveKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n',
      '{"name": "' + 'x'.repeat(88),
    );
    expect(body).toMatch(/^HTTP\/1\.1 408 /);
  });
});
