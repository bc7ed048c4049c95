import { DataSource } from 'typeorm';
import { Webhook } from 'standardwebhooks';
import { WebhookDeliveries } from '@app/webhooks';
import {
  HttpsReceiver,
  ReceivedRequest,
  makeTestCertificate,
  startHttpsReceiver,
} from '../../../test/fixtures/https';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { insertEndedJob, pageResult } from '../../../test/support/ended-jobs';

/** Retries after 50, 100 and 150 ms: a first try plus three retries, then dead letter. */
const SCHEDULE = '50ms,100ms,150ms';
const TRIES = 4;
const TIMEOUT_MS = 500;
const INLINE_MAX = 4096;

/**
 * Deliveries end to end from the moment a job has ended: the real worker consumes the webhooks
 * queue and posts to a real HTTPS receiver on loopback, which verifies every request with the
 * `standardwebhooks` package as a customer would. Jobs are written to MySQL as the worker leaves
 * them, and `jobEnded` is what the worker calls when a job ends.
 */
describe('webhook delivery (worker, HTTPS receiver)', () => {
  const certificate = makeTestCertificate();
  let api: ApiHarness;
  let worker: WorkerHarness;
  let db: DataSource;
  let deliveries: WebhookDeliveries;
  let receiver: HttpsReceiver;
  let account: TestAccount;

  const get = (path: string, key = account.liveKey) =>
    api.http().get(path).set('Authorization', `Bearer ${key}`);
  const post = (path: string, body: object = {}, key = account.liveKey) =>
    api.http().post(path).set('Authorization', `Bearer ${key}`).send(body);
  const secretOf = async (key = account.liveKey) =>
    (await get('/v1/webhooks/secret', key).expect(200)).body.secret;
  const verifies = (req: ReceivedRequest, secret: string) => {
    try {
      new Webhook(secret).verify(req.rawBody.toString(), req.headers as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  };

  async function ended(spec: Partial<Parameters<typeof insertEndedJob>[1]> = {}) {
    const jobId = await insertEndedJob(db, { accountId: account.id, webhookUrl: receiver.url, ...spec });
    const deliveryId = (await deliveries.jobEnded(jobId))!;
    return { jobId, deliveryId };
  }

  /** Polls the delivery log until the delivery leaves `pending` (or has `attempts` attempts). */
  async function settled(deliveryId: string, attempts?: number, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await get(`/v1/webhooks/deliveries/${deliveryId}`).expect(200);
      const done =
        attempts === undefined ? res.body.status !== 'pending' : res.body.attempts.length >= attempts;
      if (done) return res.body;
      if (Date.now() > deadline)
        throw new Error(`delivery still ${res.body.status}: ${JSON.stringify(res.body)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    api = await startApi();
    worker = await startWorker({
      WORKER_QUEUES: 'webhooks',
      WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_INLINE_MAX_BYTES: String(INLINE_MAX),
      NODE_EXTRA_CA_CERTS: certificate.caPath,
    });
    db = worker.app.get(DataSource);
    deliveries = worker.app.get(WebhookDeliveries);
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });
  beforeEach(async () => {
    receiver = await startHttpsReceiver({ certificate });
    account = await createAccount(api);
  });
  afterEach(() => receiver.close());

  describe('payloads, signed and verified', () => {
    it('a completed scrape: its page result, as GET /v1/jobs/{id} returns it', async () => {
      const { jobId, deliveryId } = await ended();
      const [req] = await receiver.waitForRequests(1);
      expect(verifies(req, await secretOf())).toBe(true);
      expect(verifies(req, await secretOf(account.testKey))).toBe(false);
      const job = await get(`/v1/jobs/${jobId}`).expect(200);
      expect(JSON.parse(req.body)).toEqual({ job_id: jobId, status: 'completed', result: job.body.result });
      expect(job.body.result).toEqual(pageResult(0));
      expect(req.headers).toMatchObject({
        'content-type': 'application/json',
        'x-service-job-id': jobId,
        'webhook-id': deliveryId,
        'x-service-signature': req.headers['webhook-signature'],
      });
      const log = await settled(deliveryId);
      expect(log).toMatchObject({ status: 'succeeded', attempt_count: 1, last_status_code: 200 });
      expect(log.attempts).toEqual([
        expect.objectContaining({ attempt_no: 1, replay: false, status_code: 200, error: null }),
      ]);
      expect(log.attempts[0].latency_ms).toBeGreaterThanOrEqual(0);
      expect(log.attempts[0].request_headers['webhook-signature']).toBe(req.headers['webhook-signature']);
      expect(log.payload).toEqual(JSON.parse(req.body));
    });

    it.each(['batch', 'crawl'] as const)(
      'a completed %s: {data, next} plus total, completed, failed',
      async (type) => {
        const pages = [
          pageResult(0),
          pageResult(1, { error: { code: 'HTTP_4XX', message: 'HTTP 404' } }),
          pageResult(2),
        ];
        const { jobId } = await ended({ type, pages });
        const [req] = await receiver.waitForRequests(1);
        expect(verifies(req, await secretOf())).toBe(true);
        const job = await get(`/v1/jobs/${jobId}`).expect(200);
        expect(JSON.parse(req.body)).toEqual({
          job_id: jobId,
          status: 'completed',
          result: { data: pages, next: null },
          total: 3,
          completed: 2,
          failed: 1,
        });
        expect(job.body.result).toEqual({ data: pages, next: null });
      },
    );

    it('a large result: pages inline up to the limit, the rest behind `next` for GET /v1/jobs/{id}', async () => {
      const pages = Array.from({ length: 40 }, (_, i) =>
        pageResult(i, { markdown: `# Page ${i}\n\n${'x'.repeat(300)}` }),
      );
      const { jobId } = await ended({ type: 'batch', pages });
      const [req] = await receiver.waitForRequests(1);
      const body = JSON.parse(req.body);
      expect(Buffer.byteLength(JSON.stringify(body.result.data))).toBeLessThanOrEqual(INLINE_MAX);
      expect(body.result.data.length).toBeGreaterThan(0);
      expect(body.result.data).toEqual(pages.slice(0, body.result.data.length));
      expect(body.result.next).toEqual(expect.any(String));
      const rest = await get(`/v1/jobs/${jobId}?cursor=${body.result.next}&page_size=1000`).expect(200);
      expect([...body.result.data, ...rest.body.result.data]).toEqual(pages);
    });

    it('a failed scrape: status failed, its page result carries the error', async () => {
      const page = pageResult(0, { status_code: 503, error: { code: 'HTTP_5XX', message: 'HTTP 503' } });
      const { jobId } = await ended({ status: 'failed', pages: [page] });
      const [req] = await receiver.waitForRequests(1);
      expect(JSON.parse(req.body)).toEqual({ job_id: jobId, status: 'failed', result: page });
    });

    it('a failed job with no page result: result {error: {code, message}}', async () => {
      const { jobId } = await ended({
        status: 'failed',
        pages: [],
        errorCode: 'BLOCKED_ROBOTS',
        errorMessage: 'no',
      });
      const [req] = await receiver.waitForRequests(1);
      expect(JSON.parse(req.body)).toEqual({
        job_id: jobId,
        status: 'failed',
        result: { error: { code: 'BLOCKED_ROBOTS', message: 'no' } },
      });
    });

    it('a batch where every page failed: the error, and the pages that say why', async () => {
      const pages = [0, 1].map((i) => pageResult(i, { error: { code: 'DNS', message: 'no such host' } }));
      const { jobId } = await ended({ type: 'batch', status: 'failed', pages });
      const [req] = await receiver.waitForRequests(1);
      expect(JSON.parse(req.body)).toMatchObject({
        job_id: jobId,
        status: 'failed',
        result: { error: { code: 'ALL_PAGES_FAILED', message: expect.any(String) }, data: pages, next: null },
        failed: 2,
      });
    });
  });

  describe('retries', () => {
    it('a receiver that answers 500 then 200 gets the same delivery twice, both signed', async () => {
      receiver.setBehaviour([500, 200]);
      const { deliveryId } = await ended();
      const reqs = await receiver.waitForRequests(2);
      const secret = await secretOf();
      expect(reqs.map((r) => verifies(r, secret))).toEqual([true, true]);
      expect(reqs.map((r) => r.headers['webhook-id'])).toEqual([deliveryId, deliveryId]);
      expect(reqs[1].body).toBe(reqs[0].body);
      expect(reqs[1].receivedAt - reqs[0].receivedAt).toBeGreaterThanOrEqual(45);
      const log = await settled(deliveryId);
      expect(log.status).toBe('succeeded');
      expect(log.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
      expect(log.attempts[0].error).toBe('HTTP 500');
    });

    it('a receiver that hangs past the timeout fails that attempt and gets the retry', async () => {
      receiver.setBehaviour(['hang', 200]);
      const { deliveryId } = await ended();
      await receiver.waitForRequests(2);
      const log = await settled(deliveryId);
      expect(log.status).toBe('succeeded');
      expect(log.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^TIMEOUT/) });
      expect(log.attempts[0].latency_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
      expect(log.attempts[1].status_code).toBe(200);
    });

    it('receivers that hang do not hold up deliveries to others', async () => {
      const slow = await startHttpsReceiver({ certificate, behaviour: 'hang' });
      try {
        for (let i = 0; i < 4; i++) await ended({ webhookUrl: slow.url });
        await slow.waitForRequests(4);
        const started = Date.now();
        await ended();
        await receiver.waitForRequests(1, TIMEOUT_MS);
        expect(Date.now() - started).toBeLessThan(TIMEOUT_MS / 2);
      } finally {
        await slow.close();
      }
    });

    it('a redirect is not followed and counts as a failure', async () => {
      receiver.setBehaviour([{ redirect: 302 }, 200]);
      const { deliveryId } = await ended();
      await receiver.waitForRequests(2);
      const log = await settled(deliveryId);
      expect(log.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([302, 200]);
      expect(receiver.requests.map((r) => r.path)).toEqual(['/webhook', '/webhook']);
    });

    it('410 stops at once: dead letter after one attempt', async () => {
      receiver.setBehaviour(410);
      const { deliveryId } = await ended();
      const log = await settled(deliveryId);
      expect(log).toMatchObject({
        status: 'failed',
        attempt_count: 1,
        last_status_code: 410,
        next_attempt_at: null,
      });
      await new Promise((r) => setTimeout(r, 400));
      expect(receiver.requests).toHaveLength(1);
    });

    it('exhausted: a first try and every retry, each logged, then dead letter (status failed)', async () => {
      receiver.setBehaviour(503);
      const { deliveryId } = await ended();
      const log = await settled(deliveryId);
      expect(log).toMatchObject({
        status: 'failed',
        attempt_count: TRIES,
        last_status_code: 503,
        delivered_at: null,
      });
      expect(log.attempts).toHaveLength(TRIES);
      for (const [i, attempt] of log.attempts.entries()) {
        expect(attempt).toMatchObject({
          attempt_no: i + 1,
          replay: false,
          status_code: 503,
          error: 'HTTP 503',
        });
        expect(attempt.request_headers['webhook-id']).toBe(deliveryId);
        expect(typeof attempt.latency_ms).toBe('number');
      }
      const gaps = receiver.requests.slice(1).map((r, i) => r.receivedAt - receiver.requests[i].receivedAt);
      [50, 100, 150].forEach((wait, i) => expect(gaps[i]).toBeGreaterThanOrEqual(wait - 5));
      await new Promise((r) => setTimeout(r, 400));
      expect(receiver.requests).toHaveLength(TRIES);
      const dead = await get('/v1/webhooks/deliveries?status=failed').expect(200);
      expect(dead.body.data.map((d: { id: string }) => d.id)).toEqual([deliveryId]);
    });
  });

  describe('replay', () => {
    it('replays a dead delivery: the logged payload again, same webhook-id, new attempts', async () => {
      receiver.setBehaviour(500);
      const { deliveryId } = await ended();
      await settled(deliveryId);
      receiver.setBehaviour(200);
      await post(`/v1/webhooks/deliveries/${deliveryId}/replay`).expect(202);
      const reqs = await receiver.waitForRequests(TRIES + 1);
      const replayed = reqs[TRIES];
      expect(replayed.headers['webhook-id']).toBe(deliveryId);
      expect(replayed.body).toBe(reqs[0].body);
      expect(verifies(replayed, await secretOf())).toBe(true);
      const log = await settled(deliveryId);
      expect(log).toMatchObject({ status: 'succeeded', attempt_count: TRIES + 1, replays: 1 });
      expect(log.attempts[TRIES]).toMatchObject({ attempt_no: TRIES + 1, replay: true, status_code: 200 });
    });

    it('a replay that fails gets a fresh round of retries', async () => {
      receiver.setBehaviour(410);
      const { deliveryId } = await ended();
      await settled(deliveryId);
      receiver.setBehaviour(500);
      await post(`/v1/webhooks/deliveries/${deliveryId}/replay`).expect(202);
      const log = await settled(deliveryId, 1 + TRIES);
      await new Promise((r) => setTimeout(r, 300));
      expect((await settled(deliveryId)).status).toBe('failed');
      expect(log.attempts.slice(1).every((a: { replay: boolean }) => a.replay)).toBe(true);
      expect(receiver.requests).toHaveLength(1 + TRIES);
    });

    it('a replay while a try is in flight counts that try in the new round, logged', async () => {
      receiver.setBehaviour([{ status: 500, delayMs: 300 }, 200]);
      const { deliveryId } = await ended();
      await receiver.waitForRequests(1);
      await post(`/v1/webhooks/deliveries/${deliveryId}/replay`).expect(202);
      const log = await settled(deliveryId);
      expect(log).toMatchObject({ status: 'succeeded', replays: 1, attempt_count: 2 });
      expect(
        log.attempts.map((a: { status_code: number; replay: boolean }) => [a.status_code, a.replay]),
      ).toEqual([
        [500, true],
        [200, true],
      ]);
    });

    it('bulk replay of the dead letters since a time delivers each again with its own webhook-id', async () => {
      receiver.setBehaviour(410);
      const since = new Date().toISOString();
      const dead = [await ended(), await ended()];
      for (const d of dead) await settled(d.deliveryId);
      receiver.setBehaviour(200);
      const res = await post('/v1/webhooks/deliveries/replay', { status: 'failed', since }).expect(202);
      expect(res.body).toEqual({ replayed: 2, next: null });
      const reqs = await receiver.waitForRequests(4);
      const ids = reqs.slice(2).map((r) => r.headers['webhook-id']);
      expect(ids.sort()).toEqual(dead.map((d) => d.deliveryId).sort());
      const secret = await secretOf();
      expect(reqs.slice(2).every((r) => verifies(r, secret))).toBe(true);
      for (const d of dead) expect((await settled(d.deliveryId)).status).toBe('succeeded');
    });
  });

  describe('secret rotation', () => {
    it('during the overlap both the old and the new secret verify; after expire_now only the new', async () => {
      const old = await secretOf();
      const rotated = (await post('/v1/webhooks/secret/rotate').expect(200)).body.secret;
      await ended();
      const [during] = await receiver.waitForRequests(1);
      expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifies(during, old)).toBe(true);
      expect(verifies(during, rotated)).toBe(true);

      const fresh = (await post('/v1/webhooks/secret/rotate?expire_now=true').expect(200)).body.secret;
      await ended();
      const [, after] = await receiver.waitForRequests(2);
      expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verifies(after, fresh)).toBe(true);
      expect(verifies(after, rotated)).toBe(false);
      expect(verifies(after, old)).toBe(false);
    });
  });

  describe('nothing lost', () => {
    it('the sweep creates the delivery of an ended job nobody reported', async () => {
      const jobId = await insertEndedJob(db, { accountId: account.id, webhookUrl: receiver.url });
      expect(await deliveries.sweep(0)).toMatchObject({ created: 1 });
      const [req] = await receiver.waitForRequests(1);
      expect(req.headers['x-service-job-id']).toBe(jobId);
      expect((await deliveries.sweep(0)).created).toBe(0);
    });

    it('the sweep re-queues a pending delivery whose queued try Redis lost', async () => {
      const jobId = await insertEndedJob(db, { accountId: account.id, webhookUrl: receiver.url });
      // As if the delivery row was written and Redis then lost the queued try.
      await db.query(
        `INSERT INTO webhook_deliveries (id, account_id, environment, job_id, url, payload, status, next_attempt_at, created_at, updated_at)
         VALUES ('msg_01aaaaaaaaaaaaaaaaaaaaaaaa', ?, 'production', ?, ?, '{"job_id":"x"}', 'pending', NOW(3) - INTERVAL 1 MINUTE, NOW(3), NOW(3))`,
        [account.id, jobId, receiver.url],
      );
      expect((await deliveries.sweep(0)).requeued).toBeGreaterThanOrEqual(1);
      const [req] = await receiver.waitForRequests(1);
      expect(req.headers['webhook-id']).toBe('msg_01aaaaaaaaaaaaaaaaaaaaaaaa');
      expect(verifies(req, await secretOf())).toBe(true);
    });
  });
});
