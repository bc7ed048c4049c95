/** The load over one sample (LoadSampler), and the pages the limit held then (BrowserSlots). */
export interface LoadSnapshot {
  /**
   * CPU its own process tree (the worker, its threads, its browsers) wanted over the sample, as a
   * share of the CPUs the worker may use: time used plus time runnable but waiting for a CPU. 1 is
   * all of them; above 1, pages queue for CPU.
   */
  cpu: number;
  /** CPU its process tree used over the sample, as a share of the CPUs the worker may use. */
  cpuUsed: number;
  /**
   * Busy share of the machine's CPUs over the sample, everyone's; the tree's share where the
   * worker may not use the whole machine (a quota or cpuset: other tenants are not its concern).
   */
  machineCpu: number;
  /** 99th percentile of the event loop's delay over the sample, in ms. */
  eventLoopDelayMs: number;
  /** Memory the worker may still take before its limit (cgroup, else the machine's available). */
  memoryFreeBytes: number;
  /** Browser pages rendering. */
  inFlight: number;
  /** Browser pages waiting for the level to let them in. */
  waiting: number;
}

export interface AutoscaleBounds {
  min: number;
  max: number;
  /** Where a worker starts and returns to when idle: enough pages to fill its CPUs. */
  start: number;
  /** Memory one more page in flight takes (its renderer, its share of the worker). */
  pageBytes: number;
  /** Memory kept free: below it the level goes down. */
  reserveBytes: number;
}

/** The tree uses this share of its CPUs: they are in full use, and one more page would only queue. */
export const CPU_SATURATED = 0.95;
/**
 * The tree wants this much more than its CPUs: its processes wait for a CPU about twice as long as
 * they run, so fewer pages would finish as many, sooner. Below it, with the CPUs in full use, the
 * level holds: pages that wait on the network (most of them) need more in flight than the CPUs
 * alone would suggest (docs/decisions.md, "Autoscaled concurrency").
 */
export const CPU_OVERLOADED = 3;
/** Other tenants use this share of the machine while it is saturated: a raise past `start` waits. */
export const OTHERS_BUSY = 0.25;
/**
 * The worker's own loop this late (99th percentile) delays every page's protocol messages and
 * content results. Loops on a busy 2-CPU machine read 10-170 ms at any level (docs/decisions.md,
 * "Autoscaled concurrency"): only well past that is the loop the bottleneck.
 */
export const EVENT_LOOP_LATE_MS = 250;
/** Samples a raise needs after a change: the load of the level just set. */
export const RAISE_SAMPLES = 2;
/** Samples a CPU or event-loop cut needs (a second): one slow sample is noise, not load. */
export const LOWER_SAMPLES = 4;

const clamp = (level: number, { min, max }: AutoscaleBounds) => Math.min(max, Math.max(min, level));

/** The worker itself is the load: its tree wants far more CPU than it has, or its event loop is late. */
const overloaded = (s: LoadSnapshot) => s.cpu >= CPU_OVERLOADED || s.eventLoopDelayMs >= EVENT_LOOP_LATE_MS;
/** The worker's CPUs in full use by its own tree, or its loop late: no room for another page. */
const full = (s: LoadSnapshot) => s.cpuUsed >= CPU_SATURATED || s.eventLoopDelayMs >= EVENT_LOOP_LATE_MS;
/** The machine is saturated and much of it by others. */
const othersBusy = (s: LoadSnapshot) =>
  s.machineCpu >= CPU_SATURATED && s.machineCpu - s.cpuUsed >= OTHERS_BUSY;

/**
 * The next level from the samples taken since the level last changed (oldest first). Memory acts
 * on the latest sample alone: short of the reserve, the level drops by the pages that would free
 * it. The rest acts on the window, once the pages in flight are down to the level (a level just
 * lowered is judged on its own load): most of a second's samples with the worker itself
 * overloaded (its tree wanting far more CPU than it has, or its event loop late) lower the level
 * by a tenth, at least one page; no sample with its CPUs in full use while pages wait raises it by
 * a quarter, at least one, no further than free memory holds. Above `start` a raise also needs
 * other tenants not to hold a saturated machine; below it, their load does not keep the level
 * down: fewer pages would only give the CPU away. Idle (nothing in flight or waiting), it returns
 * to `start`.
 */
export function decideLevel(level: number, window: LoadSnapshot[], bounds: AutoscaleBounds): number {
  const latest = window.at(-1);
  if (!latest) return clamp(level, bounds);
  const spare = latest.memoryFreeBytes - bounds.reserveBytes;
  if (spare < 0) {
    // From what runs, not from a level above it, so the cut frees memory at once.
    const over = Math.ceil(-spare / bounds.pageBytes);
    return clamp(Math.min(level, Math.max(latest.inFlight, 1)) - over, bounds);
  }
  const roomFor = Math.floor(spare / bounds.pageBytes);
  if (latest.inFlight === 0 && latest.waiting === 0) {
    return clamp(Math.min(bounds.start, level + roomFor), bounds);
  }
  if (latest.inFlight > level) return clamp(level, bounds);
  const overloads = window.filter(overloaded).length;
  if (window.length >= LOWER_SAMPLES && overloads * 2 > window.length) {
    return clamp(level - Math.max(1, Math.floor(level / 10)), bounds);
  }
  // Other tenants' load caps a raise at the start level.
  const ceiling = window.some(othersBusy) ? bounds.start : bounds.max;
  if (window.length >= RAISE_SAMPLES && latest.waiting > 0 && !window.some(full) && level < ceiling) {
    const step = Math.min(Math.max(1, Math.ceil(level / 4)), roomFor, latest.waiting, ceiling - level);
    return clamp(level + step, bounds);
  }
  return clamp(level, bounds);
}
