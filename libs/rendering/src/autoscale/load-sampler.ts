import { readFileSync } from 'node:fs';
import { cpus as hostCpus, freemem, totalmem } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { processTable, processTree, type ProcessEntry } from '../engines/browser-process';
import type { Cgroup } from './cgroup';

/** The load figures of one sample; the slots' figures complete a LoadSnapshot. */
export interface LoadFigures {
  cpu: number;
  cpuUsed: number;
  machineCpu: number;
  eventLoopDelayMs: number;
  memoryFreeBytes: number;
}

/** Clock ticks a second in /proc's CPU times (USER_HZ, 100 on every Linux Node supports). */
const TICKS = 100;

/**
 * CPU seconds a process used (user and system, all its threads, from its /proc entry) and CPU
 * seconds its main thread (a renderer's JavaScript, the worker's event loop) spent runnable but
 * waiting for a CPU. 0 once it is gone.
 */
function processCpu(pid: number, entry: ProcessEntry): { used: number; waited: number } {
  try {
    const [, waitedNs] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ');
    return { used: entry.cpuTicks / TICKS, waited: Number(waitedNs) / 1e9 };
  } catch {
    return { used: 0, waited: 0 };
  }
}

/** The machine's busy and total ticks over every CPU, from /proc/stat's first line. */
function machineTicks(): { busy: number; total: number } | undefined {
  try {
    const [, ...times] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
    const n = times.map(Number);
    const total = n.reduce((a, b) => a + b, 0);
    // idle and iowait are not busy.
    return { busy: total - n[3] - (n[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

function availableBytes(): number {
  try {
    const match = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: the OS's free figure.
  }
  return freemem();
}

/**
 * Measures the worker's load between two calls of `sample`: the CPU its process tree used and the
 * CPU it wanted (read from /proc, so the browsers count: time used, plus time its processes' main
 * threads waited for a CPU, so a tree that wants more than it gets reads above 1), the machine's
 * CPU, the event loop's delay, and the memory left under its limit.
 */
export class LoadSampler {
  private readonly loop = monitorEventLoopDelay({ resolution: 10 });
  private lastAt = Date.now();
  /** Each process's CPU figures at the last sample: the tree's are the sums of what each added since. */
  private last = new Map<number, { used: number; waited: number }>();
  private machine = machineTicks();
  /** The machine counts only where the worker may use all of it. */
  private readonly wholeMachine: boolean;

  constructor(
    private readonly cgroup: Cgroup,
    private readonly cpus: number,
    private readonly memoryBytes: number,
  ) {
    this.wholeMachine = cpus >= hostCpus().length;
    this.loop.enable();
    this.treeCpu();
  }

  sample(): LoadFigures {
    const now = Date.now();
    const seconds = Math.max(0.001, (now - this.lastAt) / 1000);
    this.lastAt = now;
    const tree = this.treeCpu();
    const cpuUsed = tree.used / seconds / this.cpus;
    const cpu = (tree.used + tree.waited) / seconds / this.cpus;
    let machineCpu = cpuUsed;
    const machine = machineTicks();
    if (this.wholeMachine && machine && this.machine && machine.total > this.machine.total) {
      machineCpu = (machine.busy - this.machine.busy) / (machine.total - this.machine.total);
    }
    this.machine = machine;
    // No tick since the last sample: the loop was held the whole time.
    const eventLoopDelayMs = this.loop.count > 0 ? this.loop.percentile(99) / 1e6 : seconds * 1000;
    this.loop.reset();
    return { cpu, cpuUsed, machineCpu, eventLoopDelayMs, memoryFreeBytes: this.memoryFree() };
  }

  close(): void {
    this.loop.disable();
  }

  /** CPU seconds the worker's process tree used, and waited for a CPU, since the last call. */
  private treeCpu(): { used: number; waited: number } {
    // Read now, not shared: the figures are CPU time up to this sample.
    const table = processTable();
    const now = new Map(
      processTree(process.pid, table).map((pid) => [pid, processCpu(pid, table.get(pid)!)]),
    );
    const added = { used: 0, waited: 0 };
    for (const [pid, figures] of now) {
      const before = this.last.get(pid);
      added.used += Math.max(0, figures.used - (before?.used ?? 0));
      added.waited += Math.max(0, figures.waited - (before?.waited ?? 0));
    }
    this.last = now;
    return added;
  }

  private memoryFree(): number {
    const used = this.cgroup.memoryUsed();
    const free = used === undefined ? availableBytes() : this.memoryBytes - used;
    // A cgroup's limit may be above what the machine still has.
    return Math.min(free, used === undefined ? free : availableBytes(), this.memoryBytes);
  }
}

/**
 * The CPUs (fractional under a quota) and memory the worker may use: its cgroup's limits, within
 * the machine's (`parallelism` is os.availableParallelism(), which a cpuset narrows).
 */
export function machineShare(cgroup: Cgroup, parallelism: number): { cpus: number; memoryBytes: number } {
  return {
    cpus: Math.min(parallelism, cgroup.cpus ?? Infinity),
    memoryBytes: Math.min(totalmem(), cgroup.memoryBytes ?? Infinity),
  };
}
