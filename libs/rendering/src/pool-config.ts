import type { WorkerEnv } from '@app/config';
import type { ConcurrencyBounds, MachineShare } from './autoscale/concurrency-bounds';

/** The worker variables a browser pool is configured from. */
export type PoolEnv = Pick<
  WorkerEnv,
  | 'BROWSER_POOL_SIZE'
  | 'CONTEXTS_PER_BROWSER'
  | 'CONTEXT_MAX_PAGES'
  | 'BROWSER_MAX_PAGES'
  | 'BROWSER_MAX_MEMORY_MB'
>;

/**
 * What both browser engines are limited by, named as Crawlee's browser pool names its options. The
 * puppeteer engine applies those its model has room for: puppeteer-cluster runs one browser and
 * gives every page a fresh context, so it takes concurrency and browserMaxPages.
 */
export interface PoolLimits {
  /** Browsers kept running (BROWSER_POOL_SIZE). */
  browsers: number;
  /** Contexts a browser keeps open, idle ones evicted first (CONTEXTS_PER_BROWSER). */
  contextsPerBrowser: number;
  /** Pages a context serves before it is replaced (CONTEXT_MAX_PAGES). */
  contextMaxPages: number;
  /** Pages a browser serves before it is replaced (BROWSER_MAX_PAGES). */
  browserMaxPages: number;
  /**
   * Pages an engine renders at once; more wait their turn. The highest level (ConcurrencyBounds):
   * BrowserSlots holds both engines together to the level in force.
   */
  concurrency: number;
  /** Resident memory all browsers may hold together, in MB (BROWSER_MAX_MEMORY_MB). */
  browserMaxMemoryMb: number;
}

/** What the worker holds itself beside its browsers: its heap, content threads and buffers. */
const WORKER_MB = 640;

/**
 * The one place the pool variables become limits. The browsers' memory bound follows the highest
 * level, within the memory the worker may use less its own (WORKER_MB).
 */
export const poolLimits = (env: PoolEnv, bounds: ConcurrencyBounds, share: MachineShare): PoolLimits => ({
  browsers: env.BROWSER_POOL_SIZE,
  contextsPerBrowser: env.CONTEXTS_PER_BROWSER,
  contextMaxPages: env.CONTEXT_MAX_PAGES,
  browserMaxPages: env.BROWSER_MAX_PAGES,
  concurrency: bounds.max,
  browserMaxMemoryMb:
    env.BROWSER_MAX_MEMORY_MB ||
    Math.max(256, Math.min(1024 + 256 * bounds.max, Math.floor(share.memoryBytes / 2 ** 20) - WORKER_MB)),
});

export interface PoolStats {
  browsers: number;
  /** Browsers with at least one page open; the rest are idle. */
  browsersInUse: number;
  contexts: number;
  contextsInUse: number;
  pagesInFlight: number;
  browsersLaunched: number;
  /** Browsers closed by the pool after browserMaxPages pages, or because they were stuck. */
  browsersRecycled: number;
  /** Browsers that went away by themselves (crashed, killed). */
  browsersLost: number;
  contextsCreated: number;
  /** Tabs opened; a page that reuses a kept tab opens none. */
  tabsOpened: number;
  /** Pages started again: on a fresh browser after theirs went away, on a new tab after a stale one. */
  retries: number;
}

/** The running totals of PoolStats, which each engine counts as its browsers come and go. */
export type PoolCounters = Pick<
  PoolStats,
  'browsersLaunched' | 'browsersRecycled' | 'browsersLost' | 'contextsCreated' | 'tabsOpened' | 'retries'
>;

export const newPoolCounters = (): PoolCounters => ({
  browsersLaunched: 0,
  browsersRecycled: 0,
  browsersLost: 0,
  contextsCreated: 0,
  tabsOpened: 0,
  retries: 0,
});

/** What one open browser holds right now. */
export interface BrowserFigures {
  pagesInFlight: number;
  contexts: number;
  contextsInUse: number;
}

/** PoolStats from each open browser's figures and the engine's running totals. */
export function poolStats(browsers: BrowserFigures[], counters: PoolCounters): PoolStats {
  const sum = (figure: keyof BrowserFigures) => browsers.reduce((total, b) => total + b[figure], 0);
  return {
    browsers: browsers.length,
    browsersInUse: browsers.filter((b) => b.pagesInFlight > 0).length,
    contexts: sum('contexts'),
    contextsInUse: sum('contextsInUse'),
    pagesInFlight: sum('pagesInFlight'),
    ...counters,
  };
}
