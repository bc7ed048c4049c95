import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Environment, environmentColumn, idColumn, timestamp } from './columns';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One logical delivery of a job's completion; its id is the webhook-id on every attempt and replay. */
@Entity('webhook_deliveries')
@Index(['accountId', 'environment', 'id'])
// One logical delivery per job, however many times the job's end is reported.
@Index(['jobId'], { unique: true })
@Index(['status', 'nextAttemptAt'])
// The retention sweep: ended deliveries by the time of their last change.
@Index(['status', 'updatedAt'])
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

  /** Manual replays so far; each starts a new round of tries. */
  @Column({ type: 'int', default: 0 })
  replays: number;

  /** attempt_count when the current round began: the retry schedule counts the tries after it. */
  @Column({ name: 'round_start', type: 'int', default: 0 })
  roundStart: number;

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
