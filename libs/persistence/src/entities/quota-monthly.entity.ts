import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Environment, environmentColumn, idColumn } from './columns';

/**
 * Pages reserved from the monthly quota per account, environment and UTC month: the system of
 * record that a conditional UPDATE moves, so concurrent job acceptances can never overspend.
 */
@Entity('quota_monthly')
export class QuotaMonthly {
  @PrimaryColumn({ name: 'account_id', ...idColumn })
  accountId: string;

  @PrimaryColumn(environmentColumn)
  environment: Environment;

  /** First day of the UTC month. */
  @PrimaryColumn({ type: 'date' })
  month: string;

  @Column({ type: 'int', default: 0 })
  reserved: number;
}
