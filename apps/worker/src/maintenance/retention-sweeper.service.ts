import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { every } from './periodic';

const SWEEP_EVERY_MS = 10 * 60_000;
const JOBS_PER_ROUND = 100;

/** Deletes jobs and their pages past expires_at (RESULT_RETENTION_DAYS), a few at a time. */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RetentionSweeper.name);
  private loop?: { stop: () => Promise<void> };

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  onApplicationBootstrap(): void {
    this.loop = every(SWEEP_EVERY_MS, this.logger, async () => void (await this.sweep()));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
  }

  async sweep(now = new Date()): Promise<number> {
    let deleted = 0;
    for (;;) {
      const ids = (
        await this.db.query<{ id: string }[]>('SELECT id FROM jobs WHERE expires_at < ? LIMIT ?', [
          now,
          JOBS_PER_ROUND,
        ])
      ).map((r) => r.id);
      if (!ids.length) break;
      await this.db.transaction(async (em) => {
        await em.query('DELETE FROM job_pages WHERE job_id IN (?)', [ids]);
        await em.query('DELETE FROM job_url_chunks WHERE job_id IN (?)', [ids]);
        await em.query('DELETE FROM jobs WHERE id IN (?)', [ids]);
      });
      deleted += ids.length;
    }
    if (deleted) this.logger.log({ deleted }, 'deleted expired jobs');
    return deleted;
  }
}
