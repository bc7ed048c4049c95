import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Account } from './account.entity';
import { Environment, environmentColumn, idColumn, timestamp } from './columns';

/** Only a keyed hash of the key is stored; prefix and last4 let a person recognise it. */
@Entity('api_keys')
@Index(['accountId', 'environment'])
export class ApiKey {
  @PrimaryColumn(idColumn)
  id: string;

  @Column({ name: 'account_id', ...idColumn })
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @Column(environmentColumn)
  environment: Environment;

  @Column({ name: 'key_hash', type: 'char', length: 64, unique: true })
  keyHash: string;

  @Column({ type: 'varchar', length: 16 })
  prefix: string;

  @Column({ type: 'char', length: 4 })
  last4: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  name: string | null;

  @CreateDateColumn({ name: 'created_at', ...timestamp({ default: () => 'CURRENT_TIMESTAMP(3)' }) })
  createdAt: Date;

  @Column({ name: 'last_used_at', ...timestamp({ nullable: true }) })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', ...timestamp({ nullable: true }) })
  revokedAt: Date | null;
}
