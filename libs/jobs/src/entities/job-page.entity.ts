import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestamp } from '@app/persistence';

export type PageStatus = 'pending' | 'running' | 'succeeded' | 'failed';
export const PAGE_STATUSES: PageStatus[] = ['pending', 'running', 'succeeded', 'failed'];

/** One page of a job: its place in the result order, its state and, once finished, its result. */
@Entity('job_pages')
@Index(['jobId', 'status'])
export class JobPage {
  @PrimaryColumn({ name: 'job_id', ...idColumn })
  jobId: string;

  /** Input order for a batch, discovery order for a crawl. */
  @PrimaryColumn({ type: 'int' })
  idx: number;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'enum', enum: PAGE_STATUSES, default: 'pending' })
  status: PageStatus;

  @Column({ type: 'smallint', default: 0 })
  depth: number;

  @Column({ type: 'tinyint', default: 0 })
  attempts: number;

  @Column({ name: 'status_code', type: 'smallint', nullable: true })
  statusCode: number | null;

  @Column({ name: 'error_code', type: 'varchar', length: 32, nullable: true })
  errorCode: string | null;

  @Column({ name: 'render_ms', type: 'int', nullable: true })
  renderMs: number | null;

  /** The page result as JSON text, exactly what GET /v1/jobs/{id} returns for the page. */
  @Column({ type: 'longtext', nullable: true })
  result: string | null;

  @Column({ name: 'finished_at', ...timestamp({ nullable: true }) })
  finishedAt: Date | null;
}
