import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Environment, environmentColumn, idColumn, timestamp } from './columns';

/**
 * One signing secret per account and environment, encrypted at rest (AES-256-GCM with
 * SECRETS_ENCRYPTION_KEY). After a rotation the previous one keeps signing until previous_expires_at.
 */
@Entity('webhook_secrets')
@Index(['accountId', 'environment'], { unique: true })
export class WebhookSecret {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'account_id', ...idColumn })
  accountId: string;

  @Column(environmentColumn)
  environment: Environment;

  @Column({ name: 'secret_enc', type: 'varchar', length: 512 })
  secretEnc: string;

  @Column({ name: 'previous_secret_enc', type: 'varchar', length: 512, nullable: true })
  previousSecretEnc: string | null;

  @Column({ name: 'previous_expires_at', ...timestamp({ nullable: true }) })
  previousExpiresAt: Date | null;

  @Column({ name: 'created_at', ...timestamp() })
  createdAt: Date;

  @Column({ name: 'rotated_at', ...timestamp({ nullable: true }) })
  rotatedAt: Date | null;
}
