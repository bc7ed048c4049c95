import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { idColumn, timestamp } from './columns';
import { Plan } from './plan.entity';

export type AccountStatus = 'active' | 'suspended';

@Entity('accounts')
export class Account {
  @PrimaryColumn(idColumn)
  id: string;

  @Column({ type: 'varchar', length: 254, unique: true })
  email: string;

  @Column({ name: 'plan_id', type: 'int' })
  planId: number;

  @ManyToOne(() => Plan, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'plan_id' })
  plan?: Plan;

  @Column({ type: 'enum', enum: ['active', 'suspended'], default: 'active' })
  status: AccountStatus;

  @CreateDateColumn({ name: 'created_at', ...timestamp({ default: () => 'CURRENT_TIMESTAMP(3)' }) })
  createdAt: Date;

  @UpdateDateColumn({
    name: 'updated_at',
    ...timestamp({ default: () => 'CURRENT_TIMESTAMP(3)', onUpdate: 'CURRENT_TIMESTAMP(3)' }),
  })
  updatedAt: Date;
}
