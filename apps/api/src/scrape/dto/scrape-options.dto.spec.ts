import { toScrapeOptions } from './scrape-options.dto';

describe('toScrapeOptions: block_resources', () => {
  it('blocks images, media and fonts by default', () => {
    expect(toScrapeOptions({}).block_resources).toBe(true);
    expect(toScrapeOptions({ formats: ['markdown', 'links'] }).block_resources).toBe(true);
  });

  it('does not block them when a screenshot is asked for, unless told to', () => {
    expect(toScrapeOptions({ formats: ['markdown', 'screenshot'] }).block_resources).toBe(false);
    expect(toScrapeOptions({ formats: ['screenshot'], block_resources: true }).block_resources).toBe(true);
    expect(toScrapeOptions({ block_resources: false }).block_resources).toBe(false);
  });
});
