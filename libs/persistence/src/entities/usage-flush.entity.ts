import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { timestamp } from './columns';

/**
 * One row per batch of usage counters moved from Redis into usage_daily, written in the same
 * transaction: a batch retried after a crash is recognised and never counted twice.
 */
@Entity('usage_flushes')
@Index(['flushedAt'])
export class UsageFlush {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'flushed_at', ...timestamp({ default: () => 'CURRENT_TIMESTAMP(3)' }) })
  flushedAt: Date;
}
