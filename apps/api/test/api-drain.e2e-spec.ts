import { connect } from 'node:net';
import { request } from 'node:http';
import { FixtureSite, startFixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { OwnRedis, startRedisServer } from '../../../test/support/redis-server';
import { RunningProcess, startApiProcess, startWorkerProcess } from '../../../test/support/processes';

const SLOW_PAGE = '/slow?ms=5000&drain=api';

/** A fresh connection's answer to GET /healthz: its status, or the connection error's code. */
function probeNewConnection(port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ port, host: '127.0.0.1', path: '/healthz', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

/**
 * SIGTERM to the API as a real child process (from dist): the listener closes at once, requests in
 * flight still get their answers, and the process exits 0.
 */
describe('API drain on SIGTERM', () => {
  let site: FixtureSite;
  let redis: OwnRedis;
  let api: ApiHarness;
  let account: TestAccount;
  const processes: RunningProcess[] = [];

  beforeAll(async () => {
    site = await startFixtureSite();
    redis = await startRedisServer();
    api = await startApi({ REDIS_URL: redis.url });
    account = await createAccount(api, 'enterprise');
    processes.push(await startWorkerProcess({ REDIS_URL: redis.url, WORKER_QUEUES: 'render' }));
  });
  afterAll(async () => {
    for (const p of processes) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
    await api?.close();
    await redis?.stop();
    await site?.close();
  });

  it('answers the sync scrape in flight, refuses new connections, then exits 0', async () => {
    const apiProc = await startApiProcess({ REDIS_URL: redis.url, SHUTDOWN_GRACE_MS: '60000' });
    processes.push(apiProc);
    const body = JSON.stringify({ url: `${site.origin}${SLOW_PAGE}`, render: 'http' });
    const socket = connect(apiProc.port, '127.0.0.1');
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST /v1/scrape HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${account.liveKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    while (site.hits(SLOW_PAGE) === 0) await new Promise((r) => setTimeout(r, 20));

    apiProc.child.kill('SIGTERM');
    // Until the signal is handled a probe may still be served (200), or cut as the listener closes.
    let probe: number | string;
    do probe = await probeNewConnection(apiProc.port);
    while (probe === 200 || probe === 503 || probe === 'ECONNRESET');
    expect(probe).toBe('ECONNREFUSED');
    // The listener closed while the scrape was still waiting for its page.
    expect(received).toBe('');
    // A request pipelined on the open connection now is refused with 503 (answered after the scrape).
    socket.write('GET /healthz HTTP/1.1\r\nHost: api\r\n\r\n');

    await closed;
    const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    const page = JSON.parse(first.slice(first.indexOf('\r\n\r\n') + 4));
    expect(page).toMatchObject({ url: `${site.origin}${SLOW_PAGE}`, status_code: 200 });
    expect(page.error).toBeUndefined();
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'unavailable' });
    expect(await apiProc.exited).toBe(0);
  }, 120_000);
});
