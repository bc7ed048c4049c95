import { QUEUE_OF, jobIdOf, jobOptions } from './jobs';
import { SCRAPE_DEFAULTS } from './scrape-options';

// The ids are kept as they were: during a rolling deploy old and new workers, and the reconciler,
// must name the same work alike for a second add to be ignored.
describe('job ids', () => {
  it('names a chunk, an expansion, a crawl page and a delivery try by their payload', () => {
    expect(jobIdOf('pages', { jobId: 'job_1', fromIdx: 20, toIdx: 30, piece: true })).toBe('job_1:20');
    expect(jobIdOf('expand', { jobId: 'job_1' })).toBe('job_1:expand');
    expect(jobIdOf('crawl-page', { jobId: 'job_2', idx: 7, slotAt: 5 })).toBe('job_2:p:7');
    expect(jobIdOf('deliver', { deliveryId: 'whd_1', attemptNo: 3 })).toBe('whd_1:3');
  });

  it('gives work handed back again its id and a suffix of its own each time', () => {
    const data = { jobId: 'job_2', idx: 7 };
    const [first, second] = [jobIdOf('crawl-page', data, true), jobIdOf('crawl-page', data, true)];
    expect(first.startsWith('job_2:p:7:')).toBe(true);
    expect(second.startsWith('job_2:p:7:')).toBe(true);
    expect(first).not.toBe(second);
  });

  it('gives each sync scrape an id of its own', () => {
    const data = {
      accountId: 'a',
      environment: 'production' as const,
      url: 'http://x.test/',
      options: SCRAPE_DEFAULTS,
    };
    expect(jobIdOf('scrape-sync', data)).not.toBe(jobIdOf('scrape-sync', data));
  });
});

describe('queues of the jobs', () => {
  it('puts sync scrapes, chunks and expansions on render, crawl pages on crawl, deliveries on webhooks', () => {
    expect(QUEUE_OF).toEqual({
      'scrape-sync': 'render',
      pages: 'render',
      expand: 'render',
      map: 'render',
      'crawl-page': 'crawl',
      deliver: 'webhooks',
    });
  });

  it('runs a sync scrape before async work, and crawl pages after both', () => {
    expect(jobOptions('scrape-sync').priority).toBeLessThan(jobOptions('pages').priority);
    expect(jobOptions('map').priority).toBe(jobOptions('scrape-sync').priority);
    expect(jobOptions('pages').priority).toBe(jobOptions('expand').priority);
    expect(jobOptions('crawl-page').priority).toBeGreaterThan(jobOptions('pages').priority);
  });
});
