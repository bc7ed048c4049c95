import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { idColumn, timestamp } from './columns';

/** One HTTP try of a delivery, as the delivery log shows it. */
@Entity('webhook_attempts')
@Index(['deliveryId', 'attemptNo'])
export class WebhookAttempt {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'delivery_id', ...idColumn })
  deliveryId: string;

  @Column({ name: 'attempt_no', type: 'int' })
  attemptNo: number;

  @Column({ type: 'boolean', default: false })
  replay: boolean;

  @Column({ name: 'started_at', ...timestamp() })
  startedAt: Date;

  /** Headers sent (signatures included, never a secret). */
  @Column({ name: 'request_headers', type: 'json' })
  requestHeaders: Record<string, string>;

  @Column({ name: 'status_code', type: 'smallint', nullable: true })
  statusCode: number | null;

  @Column({ name: 'latency_ms', type: 'int' })
  latencyMs: number;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  error: string | null;

  /** The first bytes of the receiver's answer, for debugging. */
  @Column({ name: 'response_excerpt', type: 'varchar', length: 1024, nullable: true })
  responseExcerpt: string | null;
}
