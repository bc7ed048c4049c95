import { concurrencyBounds } from './autoscale/concurrency-bounds';
import { newPoolCounters, poolLimits, poolStats } from './pool-config';

const GiB = 2 ** 30;
const host = { cpus: 2, memoryBytes: 24 * GiB };
const fixed = (n: number) =>
  concurrencyBounds({ RENDER_CONCURRENCY: n, RENDER_CONCURRENCY_MIN: 1, RENDER_CONCURRENCY_MAX: 0 }, host);

describe('pool config', () => {
  it('turns each pool variable into the limit of its name', () => {
    expect(
      poolLimits(
        {
          BROWSER_POOL_SIZE: 2,
          CONTEXTS_PER_BROWSER: 3,
          CONTEXT_MAX_PAGES: 40,
          BROWSER_MAX_PAGES: 50,
          BROWSER_MAX_MEMORY_MB: 1024,
        },
        fixed(6),
        host,
      ),
    ).toEqual({
      browsers: 2,
      contextsPerBrowser: 3,
      contextMaxPages: 40,
      browserMaxPages: 50,
      concurrency: 6,
      browserMaxMemoryMb: 1024,
    });
  });

  it("derives the browsers' memory bound from the highest level unless it is set, within the memory less the worker's own", () => {
    const env = {
      BROWSER_POOL_SIZE: 1,
      CONTEXTS_PER_BROWSER: 4,
      CONTEXT_MAX_PAGES: 2000,
      BROWSER_MAX_PAGES: 2000,
      BROWSER_MAX_MEMORY_MB: 0,
    };
    expect(poolLimits(env, fixed(2), host).browserMaxMemoryMb).toBe(1536);
    expect(poolLimits(env, fixed(24), host).browserMaxMemoryMb).toBe(7168);
    expect(poolLimits(env, fixed(24), { cpus: 2, memoryBytes: 2 * GiB }).browserMaxMemoryMb).toBe(1408);
    expect(poolLimits({ ...env, BROWSER_MAX_MEMORY_MB: 900 }, fixed(2), host).browserMaxMemoryMb).toBe(900);
  });

  it('sums the open browsers, counting only those with pages as in use', () => {
    const counters = { ...newPoolCounters(), browsersLaunched: 3, retries: 1 };
    const browsers = [
      { pagesInFlight: 2, contexts: 3, contextsInUse: 1 },
      { pagesInFlight: 0, contexts: 1, contextsInUse: 0 },
    ];
    expect(poolStats(browsers, counters)).toEqual({
      browsers: 2,
      browsersInUse: 1,
      contexts: 4,
      contextsInUse: 1,
      pagesInFlight: 2,
      ...counters,
    });
    expect(poolStats([], newPoolCounters())).toMatchObject({ browsers: 0, contexts: 0, pagesInFlight: 0 });
  });
});
