import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { loadSharedEnv } from '@app/config';
import { RedisKeys } from '@app/persistence';
import { CrawlFrontier, FrontierLostError, FrontierRecord, REBUILD_IDX_GAP } from './crawl-frontier';
import { HostGate } from './host-gate';

describe('CrawlFrontier and HostGate (real Redis)', () => {
  const keys = new RedisKeys(loadSharedEnv());
  let redis: Redis;
  let frontier: CrawlFrontier;
  let gate: HostGate;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!);
    frontier = new CrawlFrontier(redis, keys);
    gate = new HostGate(redis, keys);
  });
  afterAll(async () => redis.quit());

  const jobId = () => `job_${randomBytes(13).toString('hex').slice(0, 26)}`;
  const startOnly = (): FrontierRecord => ({ fetched: 1, skipped: 0, maxIdx: 0, seen: new Map([['h/', 0]]) });
  const fetch = (key: string) => ({ key, kind: 'fetch' as const });
  const skip = (key: string) => ({ key, kind: 'skip' as const });

  it('has no frontier until it is built, then numbers new URLs after the start page', async () => {
    const id = jobId();
    await expect(frontier.admit(id, [fetch('h/a')])).rejects.toBeInstanceOf(FrontierLostError);
    expect(await frontier.rebuild(id, 10, async () => startOnly())).toBe(true);
    expect(await frontier.admit(id, [fetch('h/a'), fetch('h/'), skip('x/'), fetch('h/a')])).toEqual([
      { idx: 1, isNew: true },
      { idx: 0, isNew: false },
      { idx: 2, isNew: true },
      { idx: 1, isNew: false },
    ]);
  });

  it('admits exactly `limit` pages to fetch, and as many to report, however many callers race', async () => {
    const id = jobId();
    await frontier.rebuild(id, 37, async () => startOnly());
    const callers = Array.from({ length: 40 }, (_, c) =>
      frontier.admit(
        id,
        Array.from({ length: 25 }, (_, i) =>
          i % 5 === 4 ? skip(`x/${c}-${i}`) : fetch(`h/${(c * 7 + i) % 300}`),
        ),
      ),
    );
    const admissions = (await Promise.all(callers)).flat();
    const news = admissions.filter((a) => a.isNew);
    expect(news).toHaveLength(36 + 37);
    // Every admitted idx is distinct and the numbering has no hole.
    expect(new Set(news.map((a) => a.idx)).size).toBe(news.length);
    expect(Math.max(...news.map((a) => a.idx))).toBe(news.length);
  });

  it('marks other spellings of a page as seen once', async () => {
    const id = jobId();
    await frontier.rebuild(id, 10, async () => startOnly());
    expect(await frontier.alias(id, 'h/canonical', 0)).toBe(true);
    expect(await frontier.alias(id, 'h/canonical', 3)).toBe(false);
    expect(await frontier.admit(id, [fetch('h/canonical')])).toEqual([{ idx: 0, isNew: false }]);
  });

  it('rebuilds a lost frontier from the rows, numbering on past a gap, limit counted', async () => {
    const id = jobId();
    await frontier.rebuild(id, 3, async () => startOnly());
    await frontier.admit(id, [fetch('h/a'), skip('x/')]);
    await frontier.drop(id);
    const rows: FrontierRecord = {
      fetched: 2,
      skipped: 1,
      maxIdx: 2,
      seen: new Map([
        ['h/', 0],
        ['h/a', 1],
        ['x/', 2],
      ]),
    };
    // Only one worker rebuilds at a time.
    await redis.set(keys.key('crawl', `{${id}}`, 'rebuild'), '1');
    expect(await frontier.rebuild(id, 3, async () => rows)).toBe(false);
    await redis.del(keys.key('crawl', `{${id}}`, 'rebuild'));
    expect(await frontier.rebuild(id, 3, async () => rows)).toBe(true);
    expect(await frontier.admit(id, [fetch('h/a'), fetch('h/b'), fetch('h/c')])).toEqual([
      { idx: 1, isNew: false },
      { idx: 3 + REBUILD_IDX_GAP, isNew: true },
      { idx: -1, isNew: false },
    ]);
  });

  it('spaces fetches of a host by the delay and books later callers a slot each', async () => {
    const host = `h-${randomBytes(4).toString('hex')}.test`;
    expect(await gate.take(host, 1000, false)).toBe(0);
    const waits = [await gate.take(host, 1000, false), await gate.take(host, 1000, false)];
    expect(waits[0]).toBeGreaterThan(900);
    expect(waits[0]).toBeLessThanOrEqual(1000);
    expect(waits[1]).toBeGreaterThan(1900);
    expect(waits[1]).toBeLessThanOrEqual(2000);
    // A booked caller that comes early is told to wait for the spacing, and books nothing more.
    expect(await gate.take(host, 1000, true)).toBeGreaterThan(900);
    await new Promise((r) => setTimeout(r, waits[0] + 20));
    expect(await gate.take(host, 1000, true)).toBe(0);
    // A newcomer queues behind the second booking (the horizon), not at the freed slot.
    expect(await gate.take(host, 1000, false)).toBeGreaterThan(1800);
  });
});
