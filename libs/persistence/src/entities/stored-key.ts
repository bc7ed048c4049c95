import { Column, CreateDateColumn, PrimaryColumn } from 'typeorm';
import { idColumn, timestamp } from './columns';

/**
 * The columns customer and admin keys share: only a keyed hash of the key is stored; prefix and
 * last4 let a person recognise it. Each entity adds its owner (each keeps its own table).
 */
export abstract class StoredKey {
  @PrimaryColumn(idColumn)
  id: string;

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

  @Column({ name: 'revoked_at', ...timestamp({ nullable: true }) })
  revokedAt: Date | null;
}
