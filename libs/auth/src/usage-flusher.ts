import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import Redis, { Result } from 'ioredis';
import { DataSource } from 'typeorm';
import { Environment, REDIS } from '@app/persistence';
import { UsageKeys } from './usage-recorder';

/**
 * Moves up to ARGV[3] dirty buckets' counters into one pending batch hash, atomically, so a count
 * is either still in its bucket or in exactly one batch.
 * KEYS: dirty set, the batch hash, the set of pending batches. ARGV: counter prefix, batch id, max.
 */
const CLAIM_LUA = `
local buckets = redis.call('SPOP', KEYS[1], ARGV[3])
for _, bucket in ipairs(buckets) do
  local counters = redis.call('HGETALL', ARGV[1] .. bucket)
  for i = 1, #counters, 2 do
    redis.call('HINCRBY', KEYS[2], bucket .. ':' .. counters[i], counters[i + 1])
  end
  redis.call('DEL', ARGV[1] .. bucket)
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('SADD', KEYS[3], ARGV[2])
end
return #buckets
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    claimUsage(
      dirty: string,
      batch: string,
      pending: string,
      counterPrefix: string,
      batchId: string,
      max: number,
    ): Result<number, Context>;
  }
}

export interface UsageRow {
  accountId: string;
  environment: Environment;
  day: string;
  pages: number;
  succeeded: number;
  failed: number;
  renderMs: number;
}

const FIELDS = { pages: 'pages', succeeded: 'succeeded', failed: 'failed', render_ms: 'renderMs' } as const;

/** A pending batch (`<account>:<environment>:<day>:<counter>` -> count) as usage_daily increments. */
export function toUsageRows(batch: Record<string, string>): UsageRow[] {
  const rows = new Map<string, UsageRow>();
  for (const [field, value] of Object.entries(batch)) {
    const [accountId, environment, day, counter] = field.split(':');
    const bucket = `${accountId}:${environment}:${day}`;
    let row = rows.get(bucket);
    if (!row) {
      row = {
        accountId,
        environment: environment as Environment,
        day,
        pages: 0,
        succeeded: 0,
        failed: 0,
        renderMs: 0,
      };
      rows.set(bucket, row);
    }
    row[FIELDS[counter as keyof typeof FIELDS]] += Number(value);
  }
  return [...rows.values()];
}

/** Buckets claimed per batch: one multi-row upsert each, well inside MySQL's packet limit. */
const BATCH_BUCKETS = 500;
export const USAGE_FLUSH_INTERVAL_MS = 5000;
/** Ledger rows are kept long past any batch a crashed flusher could leave behind. */
const LEDGER_RETENTION_DAYS = 7;

/**
 * Moves usage counters from Redis into usage_daily, exactly once: a batch is claimed atomically in
 * Redis, then written in one MySQL transaction together with its id in usage_flushes, then dropped
 * from Redis. A batch left pending (a crash, or another replica's flush in progress) is retried by
 * the next flush, and the ledger row makes the retry a no-op when the first write committed.
 * Runs every few seconds where UsageModule is imported (the worker), and once more at shutdown.
 */
@Injectable()
export class UsageFlusher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UsageFlusher.name);
  private timer?: NodeJS.Timeout;
  private queue: Promise<void> = Promise.resolve();
  private lastPrune = 0;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @InjectDataSource() private readonly db: DataSource,
    private readonly keys: UsageKeys,
  ) {
    redis.defineCommand('claimUsage', { numberOfKeys: 3, lua: CLAIM_LUA });
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.flush().catch((err: unknown) => this.logger.error({ err }, 'usage flush failed'));
    }, USAGE_FLUSH_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch((err: unknown) => this.logger.error({ err }, 'final usage flush failed'));
  }

  /** Writes every count recorded before the call; calls in one process run one after another. */
  flush(): Promise<void> {
    const run = this.queue.then(() => this.flushOnce());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async flushOnce(): Promise<void> {
    for (const id of await this.redis.smembers(this.keys.pendingBatches)) await this.apply(id);
    for (;;) {
      const id = randomUUID();
      const claimed = await this.redis.claimUsage(
        this.keys.dirty,
        this.keys.pendingBatch(id),
        this.keys.pendingBatches,
        this.keys.counterPrefix,
        id,
        BATCH_BUCKETS,
      );
      if (claimed > 0) await this.apply(id);
      if (claimed < BATCH_BUCKETS) break;
    }
    if (Date.now() - this.lastPrune > 3_600_000) {
      await this.db.query(
        `DELETE FROM usage_flushes WHERE flushed_at < NOW(3) - INTERVAL ${LEDGER_RETENTION_DAYS} DAY`,
      );
      this.lastPrune = Date.now();
    }
  }

  private async apply(id: string): Promise<void> {
    const rows = toUsageRows(await this.redis.hgetall(this.keys.pendingBatch(id)));
    if (rows.length) {
      await this.db.transaction(async (em) => {
        // Waits for a concurrent flusher holding the same id, then sees its committed row.
        const ledger = await em.query<{ affectedRows: number }>(
          'INSERT IGNORE INTO usage_flushes (id) VALUES (?)',
          [id],
        );
        if (ledger.affectedRows === 0) return;
        await em.query(
          `INSERT INTO usage_daily (account_id, environment, day, pages, succeeded, failed, render_ms_total)
           VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}
           ON DUPLICATE KEY UPDATE pages = pages + VALUES(pages), succeeded = succeeded + VALUES(succeeded),
             failed = failed + VALUES(failed), render_ms_total = render_ms_total + VALUES(render_ms_total)`,
          rows.flatMap((r) => [
            r.accountId,
            r.environment,
            r.day,
            r.pages,
            r.succeeded,
            r.failed,
            r.renderMs,
          ]),
        );
      });
    }
    // The new generation tells every API replica that its cached /v1/me figures are out of date.
    await this.redis
      .multi()
      .del(this.keys.pendingBatch(id))
      .srem(this.keys.pendingBatches, id)
      .set(this.keys.generation, randomUUID())
      .exec();
  }
}
