import { durationToMs } from '@app/config';

/**
 * When a delivery is tried (docs/api.md, Webhooks): the first try at once, then one retry after
 * each wait of WEBHOOK_RETRY_SCHEDULE; after the last retry fails, the delivery is dead.
 */
export class RetrySchedule {
  readonly waitsMs: readonly number[];

  constructor(schedule: readonly string[]) {
    this.waitsMs = schedule.map(durationToMs);
  }

  /** Tries in one round: the first plus one per wait. */
  get maxTries(): number {
    return this.waitsMs.length + 1;
  }

  /** The wait before the next try once `failedTries` tries of the round have failed; null: dead letter. */
  waitAfter(failedTries: number): number | null {
    return failedTries >= 1 && failedTries <= this.waitsMs.length ? this.waitsMs[failedTries - 1] : null;
  }
}
