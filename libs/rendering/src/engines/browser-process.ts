import { readFileSync, readdirSync } from 'node:fs';

/** One process in /proc: its parent, and the CPU it used (user and system, all its threads). */
export interface ProcessEntry {
  parent: number;
  /** utime + stime, in USER_HZ ticks (100 a second on every Linux Node supports). */
  cpuTicks: number;
}

/**
 * A read of /proc serves the memory guard (every 500 ms) this long: the autoscaler reads it every
 * 250 ms while pages run, so the guard mostly reuses that read, and never its own last one. One
 * pass over every process's stat costs about 3 ms of CPU with 100 processes on the machine.
 */
const SHARED_FOR_MS = 250;
let lastRead: { at: number; table: Map<number, ProcessEntry> } | undefined;

/**
 * Every process on the machine (Linux), read at most `maxAgeMs` ago; processes that end while it
 * is read are left out.
 */
export function processTable(maxAgeMs = 0): Map<number, ProcessEntry> {
  const now = Date.now();
  if (lastRead && now - lastRead.at <= maxAgeMs) return lastRead.table;
  const table = new Map<number, ProcessEntry>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field n of stat(5) is at n - 3 after the command name, which may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(pid, { parent: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // Gone meanwhile.
    }
  }
  lastRead = { at: now, table };
  return table;
}

/** `root` and its descendants (the browser, its zygotes, renderers, GPU and utility processes). */
export function processTree(root: number, table = processTable()): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, { parent }] of table) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const tree: number[] = [];
  for (const stack = table.has(root) ? [root] : []; stack.length > 0;) {
    const pid = stack.pop()!;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** A process's memory from /proc, in bytes (0 once it is gone). */
function memoryBytes(pid: number, measure: MemoryMeasure): number {
  const [file, field] = measure === 'rss' ? ['status', 'VmRSS'] : ['smaps_rollup', 'Pss'];
  try {
    const text = readFileSync(`/proc/${pid}/${file}`, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * `rss` counts pages shared between processes (the binary, the zygote's) once per process, so its
 * sum reads well above what a tree holds, but costs about 0.02 ms a process; `pss` splits shared
 * pages between their processes, so its sum is what the tree holds, but costs about 0.6 ms.
 */
export type MemoryMeasure = 'rss' | 'pss';

/** The memory of each root's process tree, summed over its processes. */
export function treeMemory(
  roots: number[],
  measure: MemoryMeasure,
  table = processTable(SHARED_FOR_MS),
): Map<number, number> {
  return new Map(
    roots.map((root) => [
      root,
      processTree(root, table).reduce((sum, pid) => sum + memoryBytes(pid, measure), 0),
    ]),
  );
}

/**
 * Kills a browser and everything it started, at once (SIGKILL): its process group (both libraries
 * launch Chromium as a group leader, and its processes stay in the group), and any descendant that
 * left it. Nothing happens when it is already gone.
 */
export function killBrowserTree(pid: number): void {
  const tree = processTree(pid);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // No such group: gone already, or not a group leader.
  }
  for (const member of tree) {
    try {
      process.kill(member, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}
