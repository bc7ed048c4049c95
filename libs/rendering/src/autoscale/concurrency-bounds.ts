import type { WorkerEnv } from '@app/config';
import type { AutoscaleBounds } from './decide';

export type ConcurrencyEnv = Pick<
  WorkerEnv,
  'RENDER_CONCURRENCY' | 'RENDER_CONCURRENCY_MIN' | 'RENDER_CONCURRENCY_MAX'
>;

/** What the worker may use (machineShare): CPUs, fractional under a quota, and memory in bytes. */
export interface MachineShare {
  cpus: number;
  memoryBytes: number;
}

export interface ConcurrencyBounds extends AutoscaleBounds {
  /** `RENDER_CONCURRENCY=auto`: the level moves between min and max; otherwise min = max = start. */
  auto: boolean;
}

const MiB = 2 ** 20;
/**
 * A page in flight, as the level plans for it: about 120 MiB of renderer on a light page
 * (docs/decisions.md, Rendering: Memory), twice that on a heavy one, and its share of the worker
 * (its CDP traffic, its content task). Six pages of 250 MiB at once filled a 2 GiB cgroup.
 */
export const PAGE_MB = 256;
/** The worker, its browser and content threads before any page. */
export const BASE_MB = 1024;
/** Pages in flight a CPU keeps busy: a page mostly waits on its network and its settle window. */
const START_PER_CPU = 4;
/** The default highest level a CPU: past it pages only queue for CPU. */
const MAX_PER_CPU = 8;
const CEILING = 64;

/** RENDER_CONCURRENCY and its bounds, for the CPUs and memory the worker may use. */
export function concurrencyBounds(env: ConcurrencyEnv, share: MachineShare): ConcurrencyBounds {
  const pageBytes = PAGE_MB * MiB;
  // Two pages' worth, or a tenth of the limit on a large one (the machine's other tenants).
  const reserveBytes = Math.max(2 * pageBytes, share.memoryBytes / 10);
  if (env.RENDER_CONCURRENCY !== 'auto') {
    const n = env.RENDER_CONCURRENCY;
    return { auto: false, min: n, max: n, start: n, pageBytes, reserveBytes };
  }
  const cpus = Math.max(1, Math.ceil(share.cpus));
  const min = env.RENDER_CONCURRENCY_MIN;
  const fits = Math.floor((share.memoryBytes / MiB - BASE_MB) / PAGE_MB);
  const max = Math.max(min, env.RENDER_CONCURRENCY_MAX || Math.min(CEILING, MAX_PER_CPU * cpus, fits));
  const start = Math.min(max, Math.max(min, START_PER_CPU * cpus));
  return { auto: true, min, max, start, pageBytes, reserveBytes };
}
