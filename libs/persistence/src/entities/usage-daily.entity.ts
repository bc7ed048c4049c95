import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Environment, environmentColumn, idColumn } from './columns';

/** Finished pages per account, environment and UTC day; /v1/me and /v1/usage read from here. */
@Entity('usage_daily')
export class UsageDaily {
  @PrimaryColumn({ name: 'account_id', ...idColumn })
  accountId: string;

  @PrimaryColumn(environmentColumn)
  environment: Environment;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'int', default: 0 })
  pages: number;

  @Column({ type: 'int', default: 0 })
  succeeded: number;

  @Column({ type: 'int', default: 0 })
  failed: number;

  @Column({ name: 'render_ms_total', type: 'bigint', default: 0 })
  renderMsTotal: string;
}
