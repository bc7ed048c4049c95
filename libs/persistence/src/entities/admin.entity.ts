import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { idColumn, timestamp } from './columns';

/** A person operating the service (QA, support): acts on every account through /admin/v1. */
@Entity('admins')
export class Admin {
  @PrimaryColumn(idColumn)
  id: string;

  @Column({ type: 'varchar', length: 254, unique: true })
  email: string;

  @CreateDateColumn({ name: 'created_at', ...timestamp({ default: () => 'CURRENT_TIMESTAMP(3)' }) })
  createdAt: Date;
}
