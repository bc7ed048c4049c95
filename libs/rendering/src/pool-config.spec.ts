import { newPoolCounters, poolLimits, poolStats } from './pool-config';

describe('pool config', () => {
  it('turns each pool variable into the limit of its name', () => {
    expect(
      poolLimits({
        BROWSER_POOL_SIZE: 2,
        CONTEXTS_PER_BROWSER: 3,
        CONTEXT_MAX_PAGES: 40,
        BROWSER_MAX_PAGES: 50,
        RENDER_CONCURRENCY: 6,
      }),
    ).toEqual({
      browsers: 2,
      contextsPerBrowser: 3,
      contextMaxPages: 40,
      browserMaxPages: 50,
      concurrency: 6,
    });
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
