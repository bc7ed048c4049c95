import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { type Environment, environmentColumn, idColumn, timestamp } from '@app/persistence';

/**
 * A caller's session (docs/api.md, Sessions): its cookies and localStorage, sealed under
 * SECRETS_ENCRYPTION_KEY for its account, environment and id. Live until expires_at, which each
 * request on it moves SESSION_IDLE_MINUTES ahead; a row past it is as good as gone.
 */
@Entity('sessions')
@Index(['expiresAt'])
export class Session {
  @PrimaryColumn({ name: 'account_id', ...idColumn })
  accountId: string;

  @PrimaryColumn(environmentColumn)
  environment: Environment;

  /** The caller's id: case matters, so compared byte for byte. */
  @PrimaryColumn({
    name: 'session_id',
    type: 'varchar',
    length: 128,
    charset: 'ascii',
    collation: 'ascii_bin',
  })
  sessionId: string;

  /** SessionState as JSON, sealed; null until a page has saved one. */
  @Column({ name: 'state_enc', type: 'mediumtext', nullable: true })
  stateEnc: string | null;

  @Column({ name: 'created_at', ...timestamp() })
  createdAt: Date;

  @Column({ name: 'last_used_at', ...timestamp() })
  lastUsedAt: Date;

  @Column({ name: 'expires_at', ...timestamp() })
  expiresAt: Date;
}
