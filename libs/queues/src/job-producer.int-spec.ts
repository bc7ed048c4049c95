import { TimeoutError } from '@app/common';
import { SCRAPE_DEFAULTS } from '@app/queue-contracts';
import { JobProducer } from './job-producer';
import { TestQueues, testQueues } from './bull/test-queues';

describe('JobProducer', () => {
  let queues: TestQueues;
  let producer: JobProducer;

  beforeEach(() => {
    queues = testQueues(process.env.REDIS_URL!, process.env.REDIS_PREFIX!);
    producer = new JobProducer(queues.adapter);
  });
  afterEach(async () => {
    await queues.close();
  });

  it('queues the same work once: the id comes from the payload', async () => {
    await producer.add('pages', { jobId: 'j', fromIdx: 0, toIdx: 10 });
    await producer.addMany('pages', [
      { jobId: 'j', fromIdx: 0, toIdx: 10 },
      { jobId: 'j', fromIdx: 10, toIdx: 20 },
    ]);
    await producer.add('crawl-page', { jobId: 'c', idx: 3 });
    await producer.add('crawl-page', { jobId: 'c', idx: 3, slotAt: 1 });
    expect(await queues.adapter.counts('render')).toMatchObject({ waiting: 2 });
    expect(await queues.adapter.counts('crawl')).toMatchObject({ waiting: 1 });
  });

  it('queues work a job hands back again, under a fresh id, after the delay asked for', async () => {
    await producer.add('crawl-page', { jobId: 'c', idx: 1 });
    await producer.add('crawl-page', { jobId: 'c', idx: 1 }, { delay: 60_000, again: true });
    expect(await queues.adapter.counts('crawl')).toMatchObject({ waiting: 1, delayed: 1 });
  });

  it('queues each hand-back of the same work, even two in the same millisecond', async () => {
    const data = { jobId: 'j', fromIdx: 5, toIdx: 10 };
    // One clock reading for both: a lost worker's chunk run again and its own hand-back can meet so.
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.now());
    try {
      await producer.add('pages', data, { delay: 60_000, again: true });
      await producer.add('pages', { ...data, piece: true }, { delay: 60_000, again: true });
    } finally {
      now.mockRestore();
    }
    expect(await queues.adapter.counts('render')).toMatchObject({ delayed: 2 });
  });

  it('runs a delayed delivery now, and says when there is none to run', async () => {
    const next = { deliveryId: 'd', attemptNo: 2 };
    expect(await producer.runNow('deliver', next)).toBe(false);
    await producer.add('deliver', next, { delay: 60_000 });
    expect(await producer.runNow('deliver', next)).toBe(true);
    expect(await queues.adapter.counts('webhooks')).toMatchObject({ waiting: 1, delayed: 0 });
  });

  describe('addAndWait', () => {
    const data = {
      accountId: 'acc',
      environment: 'production' as const,
      url: 'http://x.test/',
      options: SCRAPE_DEFAULTS,
    };

    it("answers with the worker's return value, or its error", async () => {
      queues.adapter.consume('render', 2, async (_name, job) => {
        const { url } = job as typeof data;
        if (url.endsWith('/fail')) throw new Error('it failed');
        return { url };
      });
      expect(await producer.addAndWait('scrape-sync', data, 10_000)).toEqual({ url: data.url });
      await expect(
        producer.addAndWait('scrape-sync', { ...data, url: 'http://x.test/fail' }, 10_000),
      ).rejects.toThrow('it failed');
    });

    it('gives up with a TimeoutError when no worker answers', async () => {
      await expect(producer.addAndWait('scrape-sync', data, 50)).rejects.toBeInstanceOf(TimeoutError);
    });
  });
});
