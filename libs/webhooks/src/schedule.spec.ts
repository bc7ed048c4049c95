import { RetrySchedule } from './schedule';

describe('RetrySchedule', () => {
  it('reads the default schedule as a first try plus five retries, then dead letter', () => {
    const schedule = new RetrySchedule(['30s', '2m', '10m', '1h', '6h']);
    expect(schedule.maxTries).toBe(6);
    expect([1, 2, 3, 4, 5].map((n) => schedule.waitAfter(n))).toEqual([
      30_000, 120_000, 600_000, 3_600_000, 21_600_000,
    ]);
    expect(schedule.waitAfter(6)).toBeNull();
    // All retries land inside 24 hours (spec, Limits).
    expect(schedule.waitsMs.reduce((a, b) => a + b, 0)).toBeLessThan(24 * 3_600_000);
  });

  it('compresses to milliseconds for tests', () => {
    const schedule = new RetrySchedule(['50ms', '100ms']);
    expect([schedule.waitAfter(1), schedule.waitAfter(2), schedule.waitAfter(3)]).toEqual([50, 100, null]);
  });

  it('with no waits, the first failure is final', () => {
    expect(new RetrySchedule([]).waitAfter(1)).toBeNull();
  });
});
