import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { Account } from './account.entity';
import { Environment, environmentColumn, idColumn, timestamp } from './columns';
import { StoredKey } from './stored-key';

/** A customer's key (`osk_live_…`, `osk_test_…`) for one of the account's environments. */
@Entity('api_keys')
@Index(['accountId', 'environment'])
export class ApiKey extends StoredKey {
  @Column({ name: 'account_id', ...idColumn })
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @Column(environmentColumn)
  environment: Environment;

  @Column({ name: 'last_used_at', ...timestamp({ nullable: true }) })
  lastUsedAt: Date | null;
}
