import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Environment, environmentColumn, idColumn, timestamp } from './columns';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One logical delivery of a job's completion; its id is the webhook-id on every attempt and replay. */
@Entity('webhook_deliveries')
@Index(['accountId', 'environment', 'id'])
@Index(['jobId'])
@Index(['status', 'nextAttemptAt'])
export class WebhookDelivery {
  @PrimaryColumn(idColumn)
  id: string;

  @Column({ name: 'account_id', ...idColumn })
  accountId: string;

  @Column(environmentColumn)
  environment: Environment;

  @Column({ name: 'job_id', ...idColumn })
  jobId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** The exact body sent; replays re-send it. */
  @Column({ type: 'longtext' })
  payload: string;

  @Column({ type: 'enum', enum: ['pending', 'succeeded', 'failed'], default: 'pending' })
  status: DeliveryStatus;

  @Column({ name: 'attempt_count', type: 'int', default: 0 })
  attemptCount: number;

  @Column({ name: 'next_attempt_at', ...timestamp({ nullable: true }) })
  nextAttemptAt: Date | null;

  @Column({ name: 'last_status_code', type: 'smallint', nullable: true })
  lastStatusCode: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 1024, nullable: true })
  lastError: string | null;

  @Column({ name: 'created_at', ...timestamp() })
  createdAt: Date;

  @Column({ name: 'updated_at', ...timestamp() })
  updatedAt: Date;

  @Column({ name: 'delivered_at', ...timestamp({ nullable: true }) })
  deliveredAt: Date | null;
}
