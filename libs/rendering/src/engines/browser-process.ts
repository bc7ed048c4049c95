import { readFileSync, readdirSync } from 'node:fs';

/** Every process's parent, from /proc (Linux); processes that end while it is read are left out. */
function parents(): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parentOf.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  return parentOf;
}

/** `root` and its descendants (the browser, its zygotes, renderers, GPU and utility processes). */
export function processTree(root: number, parentOf = parents()): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, parent] of parentOf) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const tree: number[] = [];
  for (const stack = parentOf.has(root) ? [root] : []; stack.length > 0;) {
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
export function treeMemory(roots: number[], measure: MemoryMeasure): Map<number, number> {
  const parentOf = parents();
  return new Map(
    roots.map((root) => [
      root,
      processTree(root, parentOf).reduce((sum, pid) => sum + memoryBytes(pid, measure), 0),
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
