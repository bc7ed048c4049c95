import type { BrowserSlots } from './browser-slots';
import { decideLevel, type AutoscaleBounds, type LoadSnapshot } from './decide';
import type { LoadFigures } from './load-sampler';

/** How often load is sampled and the level decided: a burst is met within about a second. */
export const SAMPLE_MS = 250;
/** The samples a decision looks back on at most (2 s). */
const WINDOW = 8;

export interface LoadSource {
  sample(): LoadFigures;
  close(): void;
}

/**
 * Sets the browser slots' level from measured load (`RENDER_CONCURRENCY=auto`): samples every
 * SAMPLE_MS and decides on the samples since the level last changed (decideLevel), so each
 * verdict is on the load of the level in force.
 */
export class Autoscaler {
  private window: LoadSnapshot[] = [];
  /** Idle at the start level, nothing is measured (reading /proc costs a few ms a sample). */
  private resting = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly slots: BrowserSlots,
    private readonly load: LoadSource,
    private readonly bounds: AutoscaleBounds,
  ) {
    this.timer = setInterval(() => this.tick(), SAMPLE_MS).unref();
  }

  /** One sample and decision (the timer's work; tests may call it). */
  tick(): void {
    const idle = this.slots.inFlight === 0 && this.slots.waiting === 0;
    if (idle && this.slots.level === this.bounds.start) {
      this.resting = true;
      this.window = [];
      return;
    }
    if (this.resting) {
      // The first sample after a rest spans the rest: it only starts the next one.
      this.resting = false;
      this.load.sample();
      return;
    }
    const snapshot = { ...this.load.sample(), inFlight: this.slots.inFlight, waiting: this.slots.waiting };
    this.window = [...this.window, snapshot].slice(-WINDOW);
    const level = decideLevel(this.slots.level, this.window, this.bounds);
    if (level === this.slots.level) return;
    this.slots.setLevel(level);
    this.window = [];
  }

  close(): void {
    clearInterval(this.timer);
    this.load.close();
  }
}
