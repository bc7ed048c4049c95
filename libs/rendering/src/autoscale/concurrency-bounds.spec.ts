import { concurrencyBounds } from './concurrency-bounds';

const GiB = 2 ** 30;
const auto = { RENDER_CONCURRENCY: 'auto' as const, RENDER_CONCURRENCY_MIN: 1, RENDER_CONCURRENCY_MAX: 0 };

describe('concurrencyBounds', () => {
  it('auto starts at 4 pages a CPU and may reach 8 a CPU, within what memory holds', () => {
    expect(concurrencyBounds(auto, { cpus: 2, memoryBytes: 24 * GiB })).toMatchObject({
      auto: true,
      min: 1,
      start: 8,
      max: 16,
    });
    // A 2-CPU pod on a big node, in 2 GiB: (2048 - 1024) / 256 pages.
    expect(concurrencyBounds(auto, { cpus: 2, memoryBytes: 2 * GiB })).toMatchObject({ start: 4, max: 4 });
    // A fractional quota counts as the CPUs it touches.
    expect(concurrencyBounds(auto, { cpus: 1.5, memoryBytes: 8 * GiB })).toMatchObject({ start: 8, max: 16 });
  });

  it('takes RENDER_CONCURRENCY_MIN and _MAX, MIN winning over a smaller MAX', () => {
    const share = { cpus: 2, memoryBytes: 24 * GiB };
    expect(concurrencyBounds({ ...auto, RENDER_CONCURRENCY_MAX: 4 }, share)).toMatchObject({
      start: 4,
      max: 4,
    });
    expect(concurrencyBounds({ ...auto, RENDER_CONCURRENCY_MIN: 10 }, share)).toMatchObject({
      min: 10,
      start: 10,
    });
    expect(
      concurrencyBounds({ ...auto, RENDER_CONCURRENCY_MIN: 5, RENDER_CONCURRENCY_MAX: 3 }, share),
    ).toMatchObject({ min: 5, max: 5, start: 5 });
  });

  it('a number fixes the level', () => {
    expect(
      concurrencyBounds({ ...auto, RENDER_CONCURRENCY: 3 }, { cpus: 64, memoryBytes: 256 * GiB }),
    ).toMatchObject({ auto: false, min: 3, max: 3, start: 3 });
  });
});
