import Bull, { type Queue } from 'bull';
import { randomBytes } from 'node:crypto';
import { SCRAPE_DEFAULTS } from '@app/queue-contracts';
import { JobProducer } from './job-producer';

// Queues under a prefix of this suite's own, with no worker: what is added stays waiting.
describe('JobProducer.nextWaiting', () => {
  let queues: Queue[];
  let producer: JobProducer;

  beforeAll(() => {
    const prefix = `${process.env.REDIS_PREFIX}_next_${randomBytes(3).toString('hex')}`;
    queues = ['render', 'crawl', 'webhooks'].map(
      (name) => new Bull(name, process.env.REDIS_URL!, { prefix }),
    );
    const [render, crawl, webhooks] = queues;
    producer = new JobProducer(render, crawl, webhooks);
  });
  afterAll(async () => {
    await Promise.all(queues.map(async (q) => (await q.obliterate({ force: true }), await q.close())));
  });

  /** What Bull's own getWaiting(0, 0) says comes next, as nextWaiting answers. */
  async function bullsNext() {
    const [head] = await producer.queue('render').getWaiting(0, 0);
    return head && { name: head.name, data: head.data as unknown };
  }

  it('answers as Bull does: nothing, then the oldest chunk, then a sync scrape ahead of every chunk', async () => {
    expect(await producer.nextWaiting('render')).toBeUndefined();

    await producer.add('pages', { jobId: 'a', fromIdx: 0, toIdx: 5 });
    await producer.add('pages', { jobId: 'a', fromIdx: 5, toIdx: 7, piece: true });
    expect(await producer.nextWaiting('render')).toEqual({
      name: 'pages',
      data: { jobId: 'a', fromIdx: 0, toIdx: 5 },
    });
    expect(await producer.nextWaiting('render')).toEqual(await bullsNext());

    const sync = {
      accountId: 'acc',
      environment: 'production' as const,
      url: 'http://x.test/',
      options: SCRAPE_DEFAULTS,
    };
    await producer.add('scrape-sync', sync);
    expect(await producer.nextWaiting('render')).toEqual({ name: 'scrape-sync', data: sync });
    expect(await producer.nextWaiting('render')).toEqual(await bullsNext());
  });
});
