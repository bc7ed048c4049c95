import { ColumnOptions, PrimaryColumnOptions } from 'typeorm';

export type Environment = 'production' | 'sandbox';
export const ENVIRONMENTS: Environment[] = ['production', 'sandbox'];

/** Millisecond precision everywhere: job timings and delivery latencies need it. */
export const timestamp = (extra: ColumnOptions = {}): ColumnOptions => ({
  type: 'datetime',
  precision: 3,
  ...extra,
});

export const environmentColumn: PrimaryColumnOptions = { type: 'enum', enum: ENVIRONMENTS };

/** Prefixed ULIDs (`job_…`): 4 + 1 + 26 characters. */
export const idColumn: PrimaryColumnOptions = { type: 'varchar', length: 32 };
