import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Environment, environmentColumn, idColumn, timestamp } from '@app/persistence';

export type JobType = 'scrape' | 'batch' | 'crawl';
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export const JOB_STATUSES: JobStatus[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];
export const TERMINAL_JOB_STATUSES: JobStatus[] = ['completed', 'failed', 'cancelled'];

@Entity('jobs')
@Index(['accountId', 'environment', 'id'])
@Index(['accountId', 'environment', 'idempotencyKey'], { unique: true })
@Index(['status', 'id'])
@Index(['expiresAt'])
export class Job {
  /** `job_` + ULID: sorting by id is sorting by creation. */
  @PrimaryColumn(idColumn)
  id: string;

  @Column({ name: 'account_id', ...idColumn })
  accountId: string;

  @Column(environmentColumn)
  environment: Environment;

  @Column({ type: 'enum', enum: ['scrape', 'batch', 'crawl'] })
  type: JobType;

  @Column({ type: 'enum', enum: JOB_STATUSES, default: 'queued' })
  status: JobStatus;

  /** The page of a scrape, the start page of a crawl; null for a batch (its URLs are in chunks). */
  @Column({ type: 'text', nullable: true })
  url: string | null;

  /** Validated request options (scrape options, crawl scope). Never the custom headers in clear. */
  @Column({ type: 'json' })
  options: object;

  @Column({ name: 'webhook_url', type: 'varchar', length: 2048, nullable: true })
  webhookUrl: string | null;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 255, nullable: true })
  idempotencyKey: string | null;

  /** SHA-256 of the request body, to tell a replay from a reused key with another body (409). */
  @Column({ name: 'request_hash', type: 'char', length: 64, nullable: true })
  requestHash: string | null;

  @Column({ type: 'int', default: 0 })
  total: number;

  @Column({ type: 'int', default: 0 })
  completed: number;

  @Column({ type: 'int', default: 0 })
  failed: number;

  /** Pages reserved from the monthly quota at acceptance; what is unused is given back at the end. */
  @Column({ name: 'quota_reserved', type: 'int', default: 0 })
  quotaReserved: number;

  @Column({ name: 'error_code', type: 'varchar', length: 64, nullable: true })
  errorCode: string | null;

  @Column({ name: 'error_message', type: 'varchar', length: 1024, nullable: true })
  errorMessage: string | null;

  @Column({ name: 'created_at', ...timestamp() })
  createdAt: Date;

  @Column({ name: 'started_at', ...timestamp({ nullable: true }) })
  startedAt: Date | null;

  @Column({ name: 'finished_at', ...timestamp({ nullable: true }) })
  finishedAt: Date | null;

  @Column({ name: 'expires_at', ...timestamp() })
  expiresAt: Date;
}
