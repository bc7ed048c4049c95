import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Admin } from './admin.entity';
import { idColumn, timestamp } from './columns';

/** An admin's key (`osk_admin_…`): stored as customer keys are, a keyed hash plus prefix and last 4. */
@Entity('admin_keys')
export class AdminKey {
  @PrimaryColumn(idColumn)
  id: string;

  @Column({ name: 'admin_id', ...idColumn })
  adminId: string;

  @ManyToOne(() => Admin, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'admin_id' })
  admin?: Admin;

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
