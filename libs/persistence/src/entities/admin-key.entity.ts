import { Column, Entity, JoinColumn, ManyToOne } from 'typeorm';
import { Admin } from './admin.entity';
import { idColumn } from './columns';
import { StoredKey } from './stored-key';

/** An admin's key (`osk_admin_…`): stored as customer keys are. */
@Entity('admin_keys')
export class AdminKey extends StoredKey {
  @Column({ name: 'admin_id', ...idColumn })
  adminId: string;

  @ManyToOne(() => Admin, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'admin_id' })
  admin?: Admin;
}
