import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { Environment, REDIS, RedisKeys } from '@app/persistence';

export interface PageOutcome {
  succeeded: boolean;
  /** Time the page took to render, in milliseconds. */
  renderMs: number;
}

/** Redis keys of the usage counters, shared by the recorder and the flusher. */
@Injectable()
export class UsageKeys {
  constructor(private readonly keys: RedisKeys) {}

  /** Prefix of the counter hash of a bucket (`<account>:<environment>:<day>`). */
  get counterPrefix(): string {
    return this.keys.key('usage', 'day', '');
  }

  /** The set of buckets with counts not yet flushed. */
  get dirty(): string {
    return this.keys.key('usage', 'dirty');
  }

  /** Ids of batches claimed from the counters and not yet confirmed written to MySQL. */
  get pendingBatches(): string {
    return this.keys.key('usage', 'pending');
  }

  pendingBatch(id: string): string {
    return this.keys.key('usage', 'pending', id);
  }

  /** Changed by every flush that wrote to usage_daily: what cached usage figures are checked against. */
  get generation(): string {
    return this.keys.key('usage', 'generation');
  }
}

/**
 * A request is a finished page (docs/api.md, Usage): it counts once, per account, environment and UTC day.
 * Counted in Redis (one atomic MULTI round trip) so a page never waits on a hot usage_daily row;
 * UsageFlusher moves the counts into MySQL.
 */
@Injectable()
export class UsageRecorder {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: UsageKeys,
  ) {}

  async record(
    accountId: string,
    environment: Environment,
    outcome: PageOutcome,
    at = new Date(),
  ): Promise<void> {
    const bucket = `${accountId}:${environment}:${at.toISOString().slice(0, 10)}`;
    const counters = this.keys.counterPrefix + bucket;
    const replies = await this.redis
      .multi()
      .hincrby(counters, 'pages', 1)
      .hincrby(counters, outcome.succeeded ? 'succeeded' : 'failed', 1)
      .hincrby(counters, 'render_ms', Math.max(0, Math.round(outcome.renderMs)))
      .sadd(this.keys.dirty, bucket)
      .exec();
    const failure = replies?.find(([err]) => err)?.[0];
    if (!replies || failure) throw failure ?? new Error('usage counters: transaction aborted');
  }
}
