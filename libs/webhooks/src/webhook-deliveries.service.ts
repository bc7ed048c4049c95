import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, LessThan, Repository } from 'typeorm';
import { SharedEnv } from '@app/config';
import { newId } from '@app/common';
import { JobQueries, TERMINAL_JOB_STATUSES } from '@app/jobs';
import { Environment, WebhookDelivery, executePrepared } from '@app/persistence';
import type { DeliverData } from '@app/queue-contracts';
import { JobProducer } from '@app/queues';
import { WebhookPayloads } from './webhook-payload';
import { RetrySchedule } from './schedule';
import { WebhookSecrets } from './webhook-secrets.service';
import { AttemptOutcome, WebhookSender } from './sender';

const MYSQL_DUPLICATE = 'ER_DUP_ENTRY';
/** The sweep leaves alone what the normal path may still be doing. */
const SWEEP_GRACE_MS = 30_000;
const SWEEP_BATCH = 500;

type Scheduled = Pick<WebhookDelivery, 'id' | 'status' | 'attemptCount' | 'nextAttemptAt'>;

/** Which round of tries a delivery is in: a replay starts a new one. */
interface Round {
  round_start: number;
  replays: number;
}

interface DeliveryRow extends Round {
  id: string;
  account_id: string;
  environment: Environment;
  job_id: string;
  url: string;
  payload: string;
  secret_enc: string | null;
  previous_secret_enc: string | null;
  previous_expires_at: Date | null;
}

/**
 * The delivery log and its state machine. A job that ends with a
 * webhook_url gets exactly one delivery (a unique index on job_id); each try is a `deliver` job
 * on the webhooks queue, recorded in MySQL, which stays the record: the sweep rebuilds whatever
 * a crash or a lost Redis dropped.
 */
@Injectable()
export class WebhookDeliveries {
  private readonly logger = new Logger(WebhookDeliveries.name);
  private readonly schedule: RetrySchedule;
  private readonly attemptListeners: ((outcome: AttemptOutcome) => void)[] = [];

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly jobs: JobQueries,
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    private readonly payloads: WebhookPayloads,
    private readonly secrets: WebhookSecrets,
    private readonly sender: WebhookSender,
    private readonly producer: JobProducer,
    env: SharedEnv,
  ) {
    this.schedule = new RetrySchedule(env.WEBHOOK_RETRY_SCHEDULE);
  }

  /**
   * Call when a job reaches completed, failed or cancelled. Creates its delivery once, however
   * often it is called, and makes sure its next try is queued. Returns the delivery id, or null
   * when the job has no webhook_url or has not ended.
   */
  async jobEnded(jobId: string): Promise<string | null> {
    const existing = await this.findScheduled({ jobId });
    if (existing) {
      await this.enqueue(existing);
      return existing.id;
    }
    const job = await this.jobs.find(jobId);
    if (!job?.webhookUrl || !TERMINAL_JOB_STATUSES.includes(job.status)) return null;
    const now = new Date();
    const payload = JSON.stringify(await this.payloads.build(job));
    try {
      // Prepared: a body of up to WEBHOOK_INLINE_MAX_BYTES is not escaped into SQL text on the
      // worker's main loop.
      await executePrepared(
        this.db,
        `INSERT INTO webhook_deliveries
           (id, account_id, environment, job_id, url, payload, status, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
        [newId('msg'), job.accountId, job.environment, jobId, job.webhookUrl, payload, now, now, now],
      );
    } catch (err) {
      if ((err as { code?: string }).code !== MYSQL_DUPLICATE) throw err;
    }
    // Whoever won the insert, this delivery is the job's one.
    const created = (await this.findScheduled({ jobId }))!;
    await this.enqueue(created);
    return created.id;
  }

  /** Hears every HTTP try as it comes back; the worker counts them for /metrics. */
  onAttempt(listener: (outcome: AttemptOutcome) => void): void {
    this.attemptListeners.push(listener);
  }

  /**
   * One try (the `deliver` job). A job whose attempt is already recorded, or whose delivery has
   * ended, does nothing, so a re-run after a crash or a duplicate add is harmless. A crash after
   * sending and before recording sends again: receivers deduplicate on webhook-id.
   */
  async attempt({ deliveryId, attemptNo }: DeliverData): Promise<void> {
    // Plain SQL, in as few round trips as it takes: this path runs once per try, and on this
    // machine a round trip to MySQL costs more than everything else the try does.
    const [delivery] = await this.db.query<DeliveryRow[]>(
      `SELECT d.id, d.account_id, d.environment, d.job_id, d.url, d.payload, d.round_start, d.replays,
              s.secret_enc, s.previous_secret_enc, s.previous_expires_at
         FROM webhook_deliveries d
         LEFT JOIN webhook_secrets s ON s.account_id = d.account_id AND s.environment = d.environment
        WHERE d.id = ? AND d.status = 'pending' AND d.attempt_count = ?`,
      [deliveryId, attemptNo - 1],
    );
    if (!delivery) return;
    const owner = { accountId: delivery.account_id, environment: delivery.environment };
    const sealed = delivery.secret_enc
      ? {
          secretEnc: delivery.secret_enc,
          previousSecretEnc: delivery.previous_secret_enc,
          previousExpiresAt: delivery.previous_expires_at,
        }
      : undefined;
    const outcome = await this.sender.send({
      url: delivery.url,
      msgId: delivery.id,
      jobId: delivery.job_id,
      body: delivery.payload,
      secrets: await this.secrets.signing(owner, sealed),
    });
    for (const listener of this.attemptListeners) listener(outcome);
    const next = await this.record(delivery, attemptNo, outcome);
    if (!next) return;
    // Every try is in the delivery log; the process log keeps what an operator acts on.
    const line = {
      deliveryId,
      jobId: delivery.job_id,
      attemptNo,
      statusCode: outcome.statusCode,
      error: outcome.error,
    };
    if (next.status === 'failed') this.logger.warn(line, 'webhook delivery dead');
    else if (next.status === 'pending') this.logger.log(line, 'webhook attempt failed; retry scheduled');
    else this.logger.debug(line, 'webhook delivered');
    await this.enqueue(next);
  }

  /** Logs the try and moves the delivery on; null when another run already logged this try. */
  private record(delivery: Round & { id: string }, attemptNo: number, outcome: AttemptOutcome) {
    const { id } = delivery;
    return this.db.transaction(async (em): Promise<Scheduled | null> => {
      const advance = async (round: Round) => {
        const now = new Date();
        const wait =
          outcome.verdict === 'retry' ? this.schedule.waitAfter(attemptNo - round.round_start) : null;
        const next: Scheduled = {
          id,
          attemptCount: attemptNo,
          status: outcome.verdict === 'delivered' ? 'succeeded' : wait === null ? 'failed' : 'pending',
          nextAttemptAt: wait === null ? null : new Date(now.getTime() + wait),
        };
        const res = await em.query<{ affectedRows: number }>(
          `UPDATE webhook_deliveries SET attempt_count = ?, status = ?, next_attempt_at = ?, last_status_code = ?,
                  last_error = ?, updated_at = ?, delivered_at = IF(? = 'succeeded', ?, delivered_at)
            WHERE id = ? AND status = 'pending' AND attempt_count = ? AND round_start = ? AND replays = ?`,
          [
            ...[attemptNo, next.status, next.nextAttemptAt, outcome.statusCode, outcome.error, now],
            ...[next.status, now, id, attemptNo - 1, round.round_start, round.replays],
          ],
        );
        return res.affectedRows === 1 ? next : null;
      };
      let round: Round | undefined = delivery;
      let next = await advance(round);
      if (!next) {
        // A replay restarted the round during the try (or another run logged it): read it locked, once.
        [round] = await em.query<Round[]>(
          `SELECT round_start, replays FROM webhook_deliveries
            WHERE id = ? AND status = 'pending' AND attempt_count = ? FOR UPDATE`,
          [id, attemptNo - 1],
        );
        next = round ? await advance(round) : null;
      }
      if (!next || !round) return null;
      await em.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt_no, replay, started_at, request_headers, status_code,
                latency_ms, error, response_excerpt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          ...[id, attemptNo, round.replays > 0, outcome.startedAt, JSON.stringify(outcome.requestHeaders)],
          ...[outcome.statusCode, outcome.latencyMs, outcome.error, outcome.responseExcerpt],
        ],
      );
      return next;
    });
  }

  /**
   * Replays deliveries (any status): each starts a new round of tries at once, with the same
   * webhook-id and the logged payload. The caller has checked they are the caller's.
   */
  async replay(ids: string[]): Promise<void> {
    if (!ids.length) return;
    const now = new Date();
    await this.deliveries
      .createQueryBuilder()
      .update()
      .set({
        status: 'pending',
        replays: () => 'replays + 1',
        roundStart: () => 'attempt_count',
        nextAttemptAt: now,
        updatedAt: now,
      })
      .where({ id: In(ids) })
      .execute();
    const rows = await this.deliveries.find({
      where: { id: In(ids) },
      select: { id: true, status: true, attemptCount: true, nextAttemptAt: true },
    });
    for (const row of rows) await this.tryNow(row);
  }

  /**
   * Makes sure nothing is lost: creates the deliveries of ended jobs that have none (a worker died
   * between ending the job and creating it) and re-adds the next try of pending deliveries that are
   * overdue (Redis lost the job). Adding is idempotent, so a try still queued or running is untouched.
   */
  async sweep(graceMs = SWEEP_GRACE_MS): Promise<{ created: number; requeued: number }> {
    const before = new Date(Date.now() - graceMs);
    const missing = await this.jobs.endedWithoutDelivery(before, SWEEP_BATCH);
    for (const id of missing) await this.jobEnded(id);
    const overdue = await this.deliveries.find({
      where: { status: 'pending', nextAttemptAt: LessThan(before) },
      select: { id: true, status: true, attemptCount: true, nextAttemptAt: true },
      order: { nextAttemptAt: 'ASC' },
      take: SWEEP_BATCH,
    });
    for (const row of overdue) await this.enqueue(row);
    return { created: missing.length, requeued: overdue.length };
  }

  private findScheduled(where: Partial<Pick<WebhookDelivery, 'id' | 'jobId'>>): Promise<Scheduled | null> {
    return this.deliveries.findOne({
      where,
      select: { id: true, status: true, attemptCount: true, nextAttemptAt: true },
    });
  }

  /** Queues the next try at its time. The queue ignores an id it holds, so this is safe to repeat. */
  private async enqueue(d: Scheduled): Promise<void> {
    if (d.status !== 'pending') return;
    const attemptNo = d.attemptCount + 1;
    const delay = Math.max(0, (d.nextAttemptAt?.getTime() ?? 0) - Date.now());
    await this.producer.add('deliver', { deliveryId: d.id, attemptNo }, { delay });
  }

  /** Like enqueue, but a try already waiting for its time goes now. */
  private async tryNow(d: Scheduled): Promise<void> {
    const next = { deliveryId: d.id, attemptNo: d.attemptCount + 1 };
    if (!(await this.producer.runNow('deliver', next))) await this.enqueue({ ...d, nextAttemptAt: null });
  }
}
