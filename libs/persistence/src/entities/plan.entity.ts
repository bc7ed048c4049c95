import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { timestamp } from './columns';

@Entity('plans')
export class Plan {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 32, unique: true })
  name: string;

  /** Token-bucket capacity; refills at this many per minute. */
  @Column({ name: 'rate_per_minute', type: 'int' })
  ratePerMinute: number;

  /** Pages per calendar month (UTC); this is `user.limit` of /v1/me. */
  @Column({ name: 'monthly_quota', type: 'int' })
  monthlyQuota: number;

  @Column({ name: 'max_concurrent_pages', type: 'int' })
  maxConcurrentPages: number;

  @CreateDateColumn({ name: 'created_at', ...timestamp({ default: () => 'CURRENT_TIMESTAMP(3)' }) })
  createdAt: Date;

  @UpdateDateColumn({
    name: 'updated_at',
    ...timestamp({ default: () => 'CURRENT_TIMESTAMP(3)', onUpdate: 'CURRENT_TIMESTAMP(3)' }),
  })
  updatedAt: Date;
}
