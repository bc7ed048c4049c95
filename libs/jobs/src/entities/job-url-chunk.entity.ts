import { Column, Entity, PrimaryColumn } from 'typeorm';
import { idColumn } from '@app/persistence';

/**
 * A batch's URL list, gzip-compressed JSON, split so each row stays well under MySQL's 16 MB
 * max_allowed_packet. Acceptance writes a few of these; the worker expands them into job_pages.
 */
@Entity('job_url_chunks')
export class JobUrlChunk {
  @PrimaryColumn({ name: 'job_id', ...idColumn })
  jobId: string;

  @PrimaryColumn({ name: 'chunk_no', type: 'int' })
  chunkNo: number;

  /** Index of this chunk's first URL in the batch. */
  @Column({ name: 'first_index', type: 'int' })
  firstIndex: number;

  @Column({ name: 'url_count', type: 'int' })
  urlCount: number;

  @Column({ type: 'longblob' })
  data: Buffer;
}
