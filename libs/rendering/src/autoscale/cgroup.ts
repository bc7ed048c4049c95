import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The CPUs and memory the worker's cgroup allows it, and the memory its cgroup holds now: v2
 * (`cpu.max`, `memory.max`, `memory.current`) or v1 (`cpu.cfs_quota_us`, `memory.limit_in_bytes`,
 * `memory.usage_in_bytes`), whichever holds the controller (a hybrid host mounts both). A limit set
 * on a parent cgroup counts too. Undefined where nothing limits (or there is no cgroup, as off Linux).
 */
export interface Cgroup {
  /** CPU time a second the quota allows, in CPUs (1.5 for `150000 100000`). */
  cpus?: number;
  memoryBytes?: number;
  /** Memory the cgroup holds that it cannot drop (its use less its inactive file cache), in bytes. */
  memoryUsed(): number | undefined;
}

/** v1 writes "no limit" as the largest page-aligned number: anything this large is none. */
const NO_LIMIT = 2 ** 62;

interface Mount {
  root: string;
  point: string;
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function bytes(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= NO_LIMIT ? undefined : n;
}

/** Each directory from the process's cgroup up to its hierarchy's mount point. */
function ancestry(dir: string, top: string): string[] {
  const dirs = [dir];
  for (let d = dir; d !== top && d.startsWith(top) && dirname(d) !== d;) dirs.push((d = dirname(d)));
  return dirs;
}

/** The smallest limit read along the ancestry and the directory that sets it; undefined when none does. */
function smallest(
  dirs: string[] | undefined,
  limitOf: (dir: string) => number | undefined,
): { limit: number; dir: string } | undefined {
  let found: { limit: number; dir: string } | undefined;
  for (const dir of dirs ?? []) {
    const limit = limitOf(dir);
    if (limit !== undefined && (!found || limit < found.limit)) found = { limit, dir };
  }
  return found;
}

function statField(dir: string, file: string, field: string): number {
  const match = new RegExp(`^${field} (\\d+)$`, 'm').exec(read(join(dir, file)) ?? '');
  return Number(match?.[1] ?? 0);
}

const v2 = {
  cpus: (dir: string) => {
    const [quota, period] = (read(join(dir, 'cpu.max')) ?? 'max').split(' ');
    return quota === 'max' || !Number(period) ? undefined : Number(quota) / Number(period);
  },
  memory: (dir: string) => bytes(read(join(dir, 'memory.max'))),
  used: (dir: string) => {
    const current = bytes(read(join(dir, 'memory.current')));
    return current === undefined ? undefined : current - statField(dir, 'memory.stat', 'inactive_file');
  },
};

const v1 = {
  cpus: (dir: string) => {
    const quota = Number(read(join(dir, 'cpu.cfs_quota_us')) ?? -1);
    const period = Number(read(join(dir, 'cpu.cfs_period_us')) ?? 0);
    return quota > 0 && period > 0 ? quota / period : undefined;
  },
  memory: (dir: string) => bytes(read(join(dir, 'memory.limit_in_bytes'))),
  used: (dir: string) => {
    const usage = bytes(read(join(dir, 'memory.usage_in_bytes')));
    return usage === undefined ? undefined : usage - statField(dir, 'memory.stat', 'total_inactive_file');
  },
};

/** Reads the process's cgroup under `root` (`/` on a host; a fixture's folder in tests). */
export function readCgroup(root = '/'): Cgroup {
  const membership = (read(join(root, 'proc/self/cgroup')) ?? '').split('\n');
  const mounts = new Map<string, Mount>();
  for (const line of (read(join(root, 'proc/self/mountinfo')) ?? '').split('\n')) {
    const [before, after] = line.split(' - ');
    if (!after) continue;
    const [, , , mountRoot, point] = before.split(' ');
    const [type, , options = ''] = after.split(' ');
    const mount = { root: mountRoot, point: join(root, point) };
    if (type === 'cgroup2') mounts.set('', mount);
    else if (type === 'cgroup') for (const option of options.split(',')) mounts.set(option, mount);
  }
  /** The process's directory of `controller` (v1), or of the unified hierarchy (''). */
  const dirOf = (controller: string): string[] | undefined => {
    const mount = mounts.get(controller);
    const line = membership.find((l) => {
      const [, controllers] = l.split(':');
      return controller === '' ? l.startsWith('0::') : controllers?.split(',').includes(controller);
    });
    if (!mount || line === undefined) return undefined;
    const path = line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1);
    // Inside a cgroup namespace the mount root is the process's own cgroup.
    const inside = relative(mount.root, path);
    const dir = inside.startsWith('..') ? mount.point : join(mount.point, inside);
    return ancestry(dir, mount.point);
  };
  const unified = dirOf('');
  const cpuV1 = dirOf('cpu');
  const memoryV1 = dirOf('memory');
  // A v1 controller wins on a hybrid host: the unified hierarchy then holds no controllers.
  const cpu = cpuV1 ? smallest(cpuV1, v1.cpus) : smallest(unified, v2.cpus);
  const [files, dirs] = memoryV1 ? [v1, memoryV1] : [v2, unified];
  const memory = smallest(dirs, files.memory);
  return {
    cpus: cpu?.limit,
    memoryBytes: memory?.limit,
    // What counts against the limit is what the cgroup setting it holds.
    memoryUsed: () => (memory ? files.used(memory.dir) : undefined),
  };
}
