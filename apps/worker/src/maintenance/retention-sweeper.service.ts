import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WorkerEnv } from '@app/config';
import { JobRetention } from '@app/jobs';
import { SessionStore } from '@app/sessions';
import { every } from './periodic';

const SWEEP_EVERY_MS = 10 * 60_000;
const JOBS_PER_ROUND = 100;
const DELIVERIES_PER_ROUND = 500;
const SESSIONS_PER_ROUND = 1000;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Deletes jobs and their pages past expires_at (RESULT_RETENTION_DAYS), ended webhook deliveries
 * with their attempts (WEBHOOK_DELIVERY_RETENTION_DAYS) and expired sessions (already invisible:
 * this only frees their rows), a few at a time.
 */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RetentionSweeper.name);
  private loop?: { stop: () => Promise<void> };

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly jobs: JobRetention,
    private readonly env: WorkerEnv,
    private readonly sessions: SessionStore,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = every(SWEEP_EVERY_MS, this.logger, async () => {
      await this.sweep();
      await this.sweepDeliveries();
      await this.sweepSessions();
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
  }

  async sweep(now = new Date()): Promise<number> {
    let deleted = 0;
    for (;;) {
      const n = await this.jobs.deleteExpired(now, JOBS_PER_ROUND);
      if (!n) break;
      deleted += n;
    }
    if (deleted) this.logger.log({ deleted }, 'deleted expired jobs');
    return deleted;
  }

  async sweepSessions(now = new Date()): Promise<number> {
    let deleted = 0;
    for (let n; (n = await this.sessions.deleteExpired(now, SESSIONS_PER_ROUND));) deleted += n;
    if (deleted) this.logger.log({ deleted }, 'deleted expired sessions');
    return deleted;
  }

  /**
   * A delivery goes once it has ended (delivered or dead: a pending one is still being tried), its
   * last change (the end of its last round, a replay included) is older than the retention, and its
   * job has expired: the delivery sweep re-creates the delivery of an unexpired job that has none.
   */
  async sweepDeliveries(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.env.WEBHOOK_DELIVERY_RETENTION_DAYS * DAY_MS);
    const expired = `d.status IN ('succeeded', 'failed') AND d.updated_at < ?`;
    let deleted = 0;
    for (;;) {
      const ids = await this.jobs.deliveriesOfExpiredJobs(expired, [before], now, DELIVERIES_PER_ROUND);
      if (!ids.length) break;
      await this.db.transaction(async (em) => {
        // Locked and checked again: a replay since the read makes the delivery pending and keeps it.
        const locked = (
          await em.query<{ id: string }[]>(
            `SELECT d.id FROM webhook_deliveries d WHERE d.id IN (?) AND ${expired} FOR UPDATE`,
            [ids, before],
          )
        ).map((r) => r.id);
        if (!locked.length) return;
        await em.query('DELETE FROM webhook_attempts WHERE delivery_id IN (?)', [locked]);
        await em.query('DELETE FROM webhook_deliveries WHERE id IN (?)', [locked]);
        deleted += locked.length;
      });
    }
    if (deleted) this.logger.log({ deleted }, 'deleted expired webhook deliveries');
    return deleted;
  }
}
