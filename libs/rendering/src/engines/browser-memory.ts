import { treeMemory } from './browser-process';

/** How often the browsers' memory is measured: a renderer can grow by hundreds of MB a second. */
const SAMPLE_MS = 500;

interface Watched {
  /** Kills the browser; its pages in flight go as after a crash (retried once, then RENDER_CRASH). */
  kill(reason: string): void;
}

/**
 * Bounds the memory of every browser of the worker, both engines' (BROWSER_MAX_MEMORY_MB): samples
 * each browser's process tree from /proc, and when their total is past the bound, kills the
 * largest browser; the engines launch a fresh one for the next page. The bound is on PSS (what the
 * trees hold), read only once the cheap RSS sum, which reads above it, is past the bound.
 */
export class BrowserMemoryGuard {
  private readonly browsers = new Map<number, Watched>();
  private timer: NodeJS.Timeout | undefined;
  /** The largest total (PSS) seen once past the RSS check, in bytes. */
  peakBytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Watches the browser whose process is `pid` until it is unwatched (it closed or went away). */
  watch(pid: number, kill: (reason: string) => void): void {
    this.browsers.set(pid, { kill });
    this.timer ??= setInterval(() => this.sample(), SAMPLE_MS).unref();
  }

  unwatch(pid: number): void {
    this.browsers.delete(pid);
    if (this.browsers.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Measures now, killing the largest browser while the total is past the bound. */
  sample(): void {
    const pids = [...this.browsers.keys()];
    const sum = (sizes: Map<number, number>) => [...sizes.values()].reduce((all, bytes) => all + bytes, 0);
    if (sum(treeMemory(pids, 'rss')) <= this.maxBytes) return;
    const sizes = treeMemory(pids, 'pss');
    let total = sum(sizes);
    this.peakBytes = Math.max(this.peakBytes, total);
    const largestFirst = [...sizes].sort((a, b) => b[1] - a[1]);
    for (const [pid, bytes] of largestFirst) {
      if (total <= this.maxBytes) break;
      const watched = this.browsers.get(pid);
      this.unwatch(pid);
      const mb = (n: number) => Math.round(n / 2 ** 20);
      watched?.kill(
        `the browsers held ${mb(total)} MB, more than BROWSER_MAX_MEMORY_MB (${mb(this.maxBytes)})`,
      );
      total -= bytes;
    }
  }

  close(): void {
    this.browsers.clear();
    this.unwatch(0);
  }
}
