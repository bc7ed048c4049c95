import { createServer, type Server } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { loadSharedEnv } from '@app/config';
import { createAddressPolicy } from '@app/net-guard';
import { HttpsReceiver, makeTestCertificate, startHttpsReceiver } from '../../../test/fixtures/https';
import { refusedOrigins } from '../../../test/fixtures/site/routing';
import { WebhookSender } from './sender';
import { generateWebhookSecret } from './signature';

const TIMEOUT_MS = 400;

/** Counts TCP connections on the refused loopback forms: a sender that dials one shows up here. */
async function startTraps(port: number): Promise<{ connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const servers: Server[] = [];
  for (const host of ['127.0.0.2', '::1']) {
    const server = createServer((socket) => {
      count++;
      socket.destroy();
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
    servers.push(server);
  }
  return {
    connections: () => count,
    close: async () => void (await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))),
  };
}

describe('WebhookSender (real HTTPS receiver on loopback)', () => {
  const certificate = makeTestCertificate();
  const policy = createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] });
  const makeSender = (extra: Record<string, string> = {}) =>
    new WebhookSender(
      policy,
      undefined as never,
      loadSharedEnv({
        ...process.env,
        WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
        NODE_EXTRA_CA_CERTS: certificate.caPath,
        ...extra,
      }),
    );
  let sender: WebhookSender;
  let receiver: HttpsReceiver;
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ job_id: 'job_x', status: 'completed', result: { text: 'héllo' } });
  const message = (url = receiver.url) => ({
    url,
    msgId: 'msg_test1',
    jobId: 'job_x',
    body,
    secrets: [secret],
  });

  beforeAll(() => {
    sender = makeSender();
  });
  beforeEach(async () => {
    receiver = await startHttpsReceiver({ certificate });
  });
  afterEach(() => receiver.close());
  afterAll(() => sender.onModuleDestroy());

  it('POSTs the body signed as Standard Webhooks verifies, with the job and signature headers', async () => {
    const outcome = await sender.send(message());
    expect(outcome).toMatchObject({ verdict: 'delivered', statusCode: 200, error: null });
    const [req] = receiver.requests;
    expect(req.method).toBe('POST');
    expect(req.body).toBe(body);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-service-job-id']).toBe('job_x');
    expect(req.headers['webhook-id']).toBe('msg_test1');
    expect(req.headers['x-service-signature']).toBe(req.headers['webhook-signature']);
    expect(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(new Webhook(secret).verify(req.rawBody.toString(), req.headers as Record<string, string>)).toEqual(
      JSON.parse(body),
    );
    // What the log keeps: the headers sent, never the secret.
    expect(outcome.requestHeaders['webhook-signature']).toBe(req.headers['webhook-signature']);
    expect(JSON.stringify(outcome)).not.toContain(secret.slice(6));
  });

  it('a 500 is a failure to retry, a 410 stops, any 2xx acknowledges', async () => {
    receiver.setBehaviour([500, 410, 204, { status: 202, body: 'queued' }]);
    expect(await sender.send(message())).toMatchObject({
      verdict: 'retry',
      statusCode: 500,
      error: 'HTTP 500',
    });
    expect(await sender.send(message())).toMatchObject({ verdict: 'gone', statusCode: 410 });
    expect(await sender.send(message())).toMatchObject({ verdict: 'delivered', statusCode: 204 });
    expect(await sender.send(message())).toMatchObject({
      verdict: 'delivered',
      statusCode: 202,
      responseExcerpt: 'queued',
    });
  });

  it('does not follow redirects: a 3xx is a failure', async () => {
    for (const redirect of [301, 302, 307, 308] as const) {
      receiver.setBehaviour({ redirect });
      const outcome = await sender.send(message());
      expect(outcome).toMatchObject({ verdict: 'retry', statusCode: redirect });
      expect(outcome.error).toContain('redirects are not followed');
    }
    expect(receiver.requests.map((r) => r.path)).toEqual(['/webhook', '/webhook', '/webhook', '/webhook']);
  });

  it('a receiver that gives no status in time is a timeout', async () => {
    receiver.setBehaviour('hang');
    const outcome = await sender.send(message());
    expect(outcome).toMatchObject({ verdict: 'retry', statusCode: null });
    expect(outcome.error).toMatch(/^TIMEOUT/);
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(outcome.latencyMs).toBeLessThan(TIMEOUT_MS + 1000);
    expect(receiver.requests).toHaveLength(1);
  });

  it('a 2xx acknowledges whatever the size of its body; the log keeps an excerpt', async () => {
    receiver.setBehaviour({ status: 200, body: 'x'.repeat(1024 * 1024) });
    const big = await sender.send(message());
    expect(big).toMatchObject({ verdict: 'delivered', statusCode: 200 });
    expect(big.responseExcerpt).toHaveLength(1024);
  });

  it('never dials refused loopback forms, nor plain http', async () => {
    const traps = await startTraps(receiver.port);
    try {
      const https = Object.values(refusedOrigins(receiver.port)).map(
        (o) => `${o.replace('http:', 'https:')}/webhook`,
      );
      for (const url of https) {
        const outcome = await sender.send(message(url));
        expect(outcome.verdict).toBe('retry');
        expect(outcome.error).toMatch(/^BLOCKED_ADDRESS/);
      }
      const plain = await sender.send(message(receiver.url.replace('https:', 'http:')));
      expect(plain.error).toContain('must use https');
      expect(traps.connections()).toBe(0);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await traps.close();
    }
  });

  it('refuses a receiver whose certificate it does not trust', async () => {
    const untrusting = makeSender({ NODE_EXTRA_CA_CERTS: '' });
    try {
      const outcome = await untrusting.send(message());
      expect(outcome).toMatchObject({ verdict: 'retry', statusCode: null });
      expect(outcome.error).toMatch(/^TLS/);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      untrusting.onModuleDestroy();
    }
  });
});
