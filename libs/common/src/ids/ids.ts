import { monotonicFactory } from 'ulid';

const next = monotonicFactory();

/** Time-sortable, prefixed ids: `job_01J…`. Sorting by id is sorting by creation time. */
export function newId(prefix: 'job' | 'acc' | 'key' | 'msg' | 'adm' | 'whs' | 'aud'): string {
  return `${prefix}_${next().toLowerCase()}`;
}
