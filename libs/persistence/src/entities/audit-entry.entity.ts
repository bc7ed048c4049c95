import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestamp } from './columns';

/**
 * One admin write: who, what, on which target, when. No foreign keys: the log outlives what it
 * names (a deleted account, a removed admin), and `bootstrap` (ADMIN_TOKEN) is not an admin row.
 */
@Entity('audit_log')
@Index(['adminId', 'id'])
@Index(['target', 'id'])
export class AuditEntry {
  /** `aud_` + ULID: sorting by id is sorting by time. */
  @PrimaryColumn(idColumn)
  id: string;

  @Column({ name: 'admin_id', ...idColumn })
  adminId: string;

  /** e.g. `account.update`, `delivery.replay`. */
  @Column({ type: 'varchar', length: 64 })
  action: string;

  /** The id acted on (account, key, job, delivery, plan name), or null for a bulk action. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  target: string | null;

  /** The request's parameters (never a key or secret: admin bodies carry none). */
  @Column({ type: 'json', nullable: true })
  details: Record<string, unknown> | null;

  @Column({ name: 'request_id', type: 'varchar', length: 64, nullable: true })
  requestId: string | null;

  @CreateDateColumn({ name: 'created_at', ...timestamp({ default: () => 'CURRENT_TIMESTAMP(3)' }) })
  createdAt: Date;
}
