/**
 * The one limit on browser pages in flight, shared by both browser engines: `level` pages at once,
 * the rest wait in arrival order. Lowering the level takes nothing away from pages in flight; new
 * pages wait until fewer than the level run.
 */
export class BrowserSlots {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private current: number) {}

  get level(): number {
    return this.current;
  }

  get inFlight(): number {
    return this.running;
  }

  get waiting(): number {
    return this.queue.length;
  }

  setLevel(level: number): void {
    this.current = level;
    this.admit();
  }

  /**
   * Runs `task` once a slot is free; `waitedMs` is how long it waited for one. A `first` task waits
   * ahead of the others (a sync scrape's page, which a caller is waiting on).
   */
  async run<T>(task: (waitedMs: number) => Promise<T>, first = false): Promise<T> {
    const asked = Date.now();
    if (this.running < this.current && this.queue.length === 0) this.running++;
    else
      await new Promise<void>((resolve) => (first ? this.queue.unshift(resolve) : this.queue.push(resolve)));
    try {
      return await task(Date.now() - asked);
    } finally {
      this.running--;
      this.admit();
    }
  }

  private admit(): void {
    while (this.running < this.current && this.queue.length > 0) {
      this.running++;
      this.queue.shift()!();
    }
  }
}
