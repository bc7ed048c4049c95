import Redis from 'ioredis';
import { SCRAPE_DEFAULTS, jobOptions } from '@app/queue-contracts';
import { bullPrefix, waitListKey } from './keys';
import type { NewJob } from './queue-adapter';
import { TestQueues, testQueues } from './test-queues';

const pages = (jobId: string, fromIdx: number, extra: Partial<NewJob> = {}): NewJob => ({
  name: 'pages',
  data: { jobId, fromIdx, toIdx: fromIdx + 10 },
  id: `${jobId}:${fromIdx}`,
  options: jobOptions('pages'),
  ...extra,
});
const sync: NewJob = {
  name: 'scrape-sync',
  data: { accountId: 'acc', environment: 'production', url: 'http://x.test/', options: SCRAPE_DEFAULTS },
  id: 'sync-1',
  options: jobOptions('scrape-sync'),
};

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

// Each test on queues of its own under a fresh prefix; none is consumed unless a test says so.
describe('QueueAdapter (Bull on the real Redis)', () => {
  let queues: TestQueues;
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!);
  });
  afterAll(async () => {
    redis.disconnect();
  });
  beforeEach(() => {
    queues = testQueues(process.env.REDIS_URL!, process.env.REDIS_PREFIX!);
  });
  afterEach(async () => {
    await queues.close();
  });

  it('answers what waits next as Bull does: nothing, the oldest chunk, then a sync scrape ahead of it', async () => {
    const { adapter } = queues;
    /** What Bull's own getWaiting(0, 0) says comes next. */
    const bullsNext = async () => {
      const [head] = await queues.bull.render.getWaiting(0, 0);
      return head && { name: head.name, data: head.data as unknown };
    };
    expect(await adapter.nextWaiting('render')).toBeUndefined();
    await adapter.add('render', pages('a', 0));
    await adapter.add('render', pages('a', 10));
    expect(await adapter.nextWaiting('render')).toEqual({
      name: 'pages',
      data: { jobId: 'a', fromIdx: 0, toIdx: 10 },
    });
    expect(await adapter.nextWaiting('render')).toEqual(await bullsNext());
    await adapter.add('render', sync);
    expect(await adapter.nextWaiting('render')).toEqual({ name: 'scrape-sync', data: sync.data });
    expect(await adapter.nextWaiting('render')).toEqual(await bullsNext());
    expect(await adapter.nextWaiting('crawl')).toBeUndefined();
  });

  it('adds a job once under an id, however often it is added, one at a time or many at once', async () => {
    const { adapter } = queues;
    await adapter.add('render', pages('b', 0));
    await adapter.addMany('render', [pages('b', 0), pages('b', 10), pages('b', 10)]);
    await adapter.add('render', pages('b', 10));
    expect(await adapter.counts('render')).toEqual({ waiting: 2, active: 0, delayed: 0, failed: 0 });
  });

  it('restores lost work: replaces a job Bull left hollow or one that failed, leaves a waiting one', async () => {
    const { adapter, redisPrefix } = queues;
    const jobKey = (id: string) => `${bullPrefix(redisPrefix)}:render:${id}`;
    // Redis lost a job's hash while its id was on its way to a worker (a flush between the worker's
    // pop and its move to active): Bull writes the try's fields into a fresh hash.
    const once = { options: { ...jobOptions('pages'), attempts: 1 } };
    await adapter.add('render', pages('hollow', 0, once));
    await redis.del(jobKey('hollow:0'));
    await adapter.add('render', pages('failed', 0, once));
    adapter.consume('render', 1, async (name, data) => {
      throw new Error(`fails: ${name} ${(data as { jobId?: string }).jobId}`);
    });
    await until(async () => (await adapter.counts('render')).failed === 2);
    expect(await redis.hget(jobKey('hollow:0'), 'data')).toBeNull();
    await adapter.stopTaking('render');
    // A plain add takes either id for a job already held, and queues nothing.
    await adapter.addMany('render', [pages('hollow', 0), pages('failed', 0)]);
    expect(await adapter.counts('render')).toMatchObject({ waiting: 0, failed: 2 });

    await adapter.add('render', pages('waiting', 0));
    await adapter.restore('render', [pages('hollow', 0), pages('failed', 0), pages('waiting', 0)]);
    expect(await adapter.counts('render')).toMatchObject({ waiting: 3, failed: 0 });
    const waiting = await queues.bull.render.getWaiting();
    expect(waiting.map((job) => [job.id, job.name, job.data.jobId]).sort()).toEqual([
      ['failed:0', 'pages', 'failed'],
      ['hollow:0', 'pages', 'hollow'],
      ['waiting:0', 'pages', 'waiting'],
    ]);
  });

  it('restores a job whose list entry Redis lost (its hash kept), and leaves one a worker holds', async () => {
    const { adapter, redisPrefix } = queues;
    const wait = waitListKey(redisPrefix, 'render');
    const jobKey = (id: string) => `${bullPrefix(redisPrefix)}:render:${id}`;
    // A partial loss (a list deleted or evicted, the job's hash kept): no worker will ever take it.
    await adapter.addMany('render', [pages('orphan', 0), pages('held', 0)]);
    await redis.lrem(wait, 0, 'orphan:0');
    await redis.lrem(wait, 0, 'held:0');
    // The same loss under a running job: its worker's lock still stands.
    await redis.set(`${jobKey('held:0')}:lock`, 'a-worker', 'PX', 30_000);
    await adapter.addMany('render', [pages('orphan', 0)]);
    expect(await redis.llen(wait)).toBe(0);

    await adapter.restore('render', [pages('orphan', 0), pages('held', 0)]);
    expect(await redis.lrange(wait, 0, -1)).toEqual(['orphan:0']);
    expect(await redis.hget(jobKey('orphan:0'), 'data')).toBe(JSON.stringify(pages('orphan', 0).data));
    expect(await redis.exists(jobKey('held:0'))).toBe(1);
  });

  it('tells which jobs have work queued: waiting, delayed or running, not failed, by whole id, however deep', async () => {
    const { adapter } = queues;
    const once = { options: { ...jobOptions('pages'), attempts: 1 } };
    await adapter.add('render', pages('failed', 0, once));
    let release!: () => void;
    adapter.consume('render', 1, (_name, data) => {
      const { jobId } = data as { jobId: string };
      if (jobId === 'failed') return Promise.reject(new Error('fails'));
      // Only the one running is held: with one slot, the others wait behind it.
      return jobId === 'running' ? new Promise<void>((done) => (release = done)) : Promise.resolve();
    });
    await until(async () => (await adapter.counts('render')).failed === 1);
    await adapter.add('render', pages('running', 0));
    await until(async () => (await adapter.counts('render')).active === 1);
    await adapter.add('render', pages('waiting', 5));
    // Found past the first slices the look reads: behind 2,100 other delayed jobs, due after them.
    const later = (delay: number) => ({ ...jobOptions('pages'), delay });
    await adapter.addMany(
      'render',
      Array.from({ length: 2100 }, (_, i) => pages('other', i, { options: later(60_000) })),
    );
    await adapter.add('render', pages('delayed', 10, { id: 'delayed:10:again', options: later(120_000) }));
    const owners = ['failed', 'running', 'waiting', 'delayed', 'wait', 'none'];
    expect([...(await adapter.ownersWithWork('render', owners))].sort()).toEqual([
      'delayed',
      'running',
      'waiting',
    ]);
    expect(await adapter.ownersWithWork('render', [])).toEqual(new Set());
    release();
  });

  it("keeps the wait list where the deployment's autoscaler reads its length", async () => {
    const { adapter, redisPrefix } = queues;
    await adapter.addMany('render', [pages('c', 0), pages('c', 10), pages('c', 20)]);
    expect(await redis.llen(waitListKey(redisPrefix, 'render'))).toBe(3);
  });

  it('counts a delayed job as delayed, runs it now on promote, and says when no job has the id', async () => {
    const { adapter } = queues;
    await adapter.add('render', pages('d', 0, { options: { ...jobOptions('pages'), delay: 60_000 } }));
    expect(await adapter.counts('render')).toMatchObject({ waiting: 0, delayed: 1 });
    expect(await adapter.nextWaiting('render')).toBeUndefined();

    expect(await adapter.promote('render', 'd:0')).toBe(true);
    expect(await adapter.counts('render')).toMatchObject({ waiting: 1, delayed: 0 });
    expect(await adapter.promote('render', 'd:0')).toBe(true);
    expect(await adapter.promote('render', 'nobody:0')).toBe(false);
  });

  it('tells when the longest-waiting job became ready, and nothing when none waits', async () => {
    const { adapter } = queues;
    expect(await adapter.oldestReadyAt('render')).toBeNull();
    const before = Date.now();
    await adapter.add('render', pages('e', 0));
    await adapter.add('render', sync);
    const readyAt = await adapter.oldestReadyAt('render');
    expect(readyAt).toBeGreaterThanOrEqual(before);
    expect(readyAt).toBeLessThanOrEqual(Date.now());
  });

  it("consumes every name of a queue and publishes each job's end to one listener, result or error", async () => {
    const { adapter } = queues;
    const ends: [string, unknown][] = [];
    await adapter.onEnded('render', {
      completed: (id, result) => ends.push([id, result()]),
      failed: (id, error) => ends.push([id, error.message]),
      stalled: (id) => ends.push([id, 'stalled']),
    });
    expect(adapter.endListeners('render')).toBe(1);
    const ran: string[] = [];
    adapter.consume('render', 2, async (name, data, job) => {
      ran.push(name);
      if (name === 'pages') throw new Error(`no pages for ${(data as { jobId: string }).jobId}`);
      // Tries are counted with the job: a second count goes on from the first.
      await job.countTry();
      return { url: (data as { url: string }).url, tries: await job.countTry() };
    });
    await adapter.add('render', sync);
    await adapter.add('render', pages('f', 0, { options: { ...jobOptions('pages'), attempts: 1 } }));
    await until(async () => ends.length === 2);
    expect(ends).toEqual(
      expect.arrayContaining([
        ['sync-1', { url: 'http://x.test/', tries: 2 }],
        ['f:0', 'no pages for f'],
      ]),
    );
    expect(ran.sort()).toEqual(['pages', 'scrape-sync']);
    expect(await adapter.counts('render')).toMatchObject({ waiting: 0, active: 0, failed: 1 });
  });

  it('stops taking jobs once the running one is done, while others still add to the queue', async () => {
    const { adapter } = queues;
    let finish!: () => void;
    const started = new Promise<void>((resolve) =>
      adapter.consume('webhooks', 1, () => {
        resolve();
        return new Promise<void>((done) => (finish = done));
      }),
    );
    const deliver = (attemptNo: number): NewJob => ({
      name: 'deliver',
      data: { deliveryId: 'w', attemptNo },
      id: `w:${attemptNo}`,
      options: jobOptions('deliver'),
    });
    await adapter.add('webhooks', deliver(1));
    await started;
    let stopped = false;
    const stopping = adapter.stopTaking('webhooks').then(() => (stopped = true));
    await adapter.add('webhooks', deliver(2));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(await adapter.counts('webhooks')).toMatchObject({ waiting: 1, active: 0 });
  });
});
