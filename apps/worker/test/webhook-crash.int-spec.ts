import { DataSource } from 'typeorm';
import { Webhook } from 'standardwebhooks';
import { WebhookDeliveries } from '@app/webhooks';
import { HttpsReceiver, makeTestCertificate, startHttpsReceiver } from '../../../test/fixtures/https';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { insertEndedJob } from '../../../test/support/ended-jobs';
import { RunningProcess, startWorkerProcess } from '../../../test/support/processes';

/**
 * A worker killed (kill -9) in the middle of a delivery: the try is in Redis as an active Bull
 * job whose lock nobody renews, so Bull's stalled-job check in the next worker runs it again.
 * Workers are real child processes from dist (npm test builds first), trusting the receiver
 * through NODE_EXTRA_CA_CERTS as Node reads it at start.
 */
describe('webhook delivery across a worker crash', () => {
  const certificate = makeTestCertificate();
  let receiver: HttpsReceiver;
  let api: ApiHarness;
  let account: TestAccount;
  const workers: RunningProcess[] = [];

  async function startWorker(): Promise<RunningProcess> {
    const proc = await startWorkerProcess({
      WORKER_QUEUES: 'webhooks',
      NODE_EXTRA_CA_CERTS: certificate.caPath,
      // Long enough that the first worker is still waiting on the hanging receiver when killed.
      WEBHOOK_TIMEOUT_MS: '120000',
    });
    workers.push(proc);
    return proc;
  }

  beforeAll(async () => {
    receiver = await startHttpsReceiver({ certificate, behaviour: ['hang', 200] });
    api = await startApi();
    account = await createAccount(api);
  });
  afterAll(async () => {
    for (const w of workers) {
      w.child.kill('SIGKILL');
      await w.exited;
    }
    await api?.close();
    await receiver?.close();
  });

  it('does not lose the delivery: the next worker delivers it, same webhook-id, signed', async () => {
    const first = await startWorker();
    const jobId = await insertEndedJob(api.app.get(DataSource), {
      accountId: account.id,
      webhookUrl: receiver.url,
    });
    const deliveryId = await api.app.get(WebhookDeliveries).jobEnded(jobId);
    await receiver.waitForRequests(1, 30_000);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    await startWorker();
    const [killed, delivered] = await receiver.waitForRequests(2, 120_000);
    expect([killed.headers['webhook-id'], delivered.headers['webhook-id']]).toEqual([deliveryId, deliveryId]);
    expect(delivered.body).toBe(killed.body);
    const { secret } = (
      await api
        .http()
        .get('/v1/webhooks/secret')
        .set('Authorization', `Bearer ${account.liveKey}`)
        .expect(200)
    ).body;
    expect(() =>
      new Webhook(secret).verify(delivered.body, delivered.headers as Record<string, string>),
    ).not.toThrow();

    const deadline = Date.now() + 10_000;
    let log;
    do {
      await new Promise((r) => setTimeout(r, 100));
      log = (
        await api
          .http()
          .get(`/v1/webhooks/deliveries/${deliveryId}`)
          .set('Authorization', `Bearer ${account.liveKey}`)
          .expect(200)
      ).body;
    } while (log.status === 'pending' && Date.now() < deadline);
    // The killed try never got to the log; the one that completed did.
    expect(log).toMatchObject({ status: 'succeeded', attempt_count: 1, last_status_code: 200 });
    expect(log.attempts).toHaveLength(1);
    expect(receiver.requests).toHaveLength(2);
  }, 180_000);
});
