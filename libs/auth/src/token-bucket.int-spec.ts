import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { loadSharedEnv } from '@app/config';
import { UnavailableError } from '@app/common';
import { RedisKeys } from '@app/persistence';
import { TokenBucket } from './token-bucket';

describe('TokenBucket (real Redis)', () => {
  const keys = new RedisKeys(loadSharedEnv());
  let redis: Redis;
  let bucket: TokenBucket;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!);
    bucket = new TokenBucket(redis, keys);
  });
  afterAll(async () => redis.quit());

  const account = () => `acc_${randomBytes(6).toString('hex')}`;

  /** A take without watched keys always decides. */
  const take = async (accountId: string, environment: 'production' | 'sandbox', perMinute: number) =>
    (await bucket.take(accountId, environment, perMinute)).decision!;

  /** Writes a bucket's state as the script keeps it: `level` in 1/60,000,000 tokens, `at` in µs. */
  const setState = async (accountId: string, tokens: number, offsetSeconds = 0) => {
    const [seconds, micros] = await redis.time();
    const at = Number(seconds) * 1e6 + Number(micros) + offsetSeconds * 1e6;
    await redis.hset(keys.key('ratelimit', accountId, 'production'), { level: tokens * 60_000_000, at });
  };

  it('starts full, hands out exactly its capacity one by one, then refuses with retry-after 1', async () => {
    const id = account();
    for (let taken = 1; taken <= 60; taken++) {
      const d = await take(id, 'production', 60);
      expect(d).toEqual({
        allowed: true,
        limit: 60,
        remaining: 60 - taken,
        resetSeconds: taken,
        retryAfterSeconds: 0,
      });
    }
    expect(await take(id, 'production', 60)).toEqual({
      allowed: false,
      limit: 60,
      remaining: 0,
      resetSeconds: 60,
      retryAfterSeconds: 1,
    });
  });

  it('says how long until one token on a slow plan', async () => {
    const id = account();
    // 2 a minute: one token every 30 s.
    await take(id, 'production', 2);
    await take(id, 'production', 2);
    const refused = await take(id, 'production', 2);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 60, retryAfterSeconds: 30 });
  });

  it('lets an idle key expire when the bucket would be full again', async () => {
    const id = account();
    await take(id, 'production', 60);
    // One token missing refills in 1 s; the key lives that long plus a second of slack.
    const ttl = await redis.pttl(keys.key('ratelimit', id, 'production'));
    expect(ttl).toBeGreaterThan(1900);
    expect(ttl).toBeLessThanOrEqual(2000);
  });

  it('refills continuously at limit/60 per second', async () => {
    const id = account();
    const before = performance.now();
    await setState(id, 0);
    await new Promise((r) => setTimeout(r, 200));
    const d = await take(id, 'production', 6000);
    const elapsed = (performance.now() - before) / 1000;
    // 100 tokens a second: about 20 back, one of them taken now.
    expect(d.allowed).toBe(true);
    expect(d.remaining).toBeGreaterThanOrEqual(19);
    expect(d.remaining).toBeLessThanOrEqual(Math.ceil(elapsed * 100));
  });

  it('refills nothing when the server clock steps back', async () => {
    const id = account();
    await setState(id, 0, 10);
    expect(await take(id, 'production', 60)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
  });

  it('keeps tokens across a plan change, capped at the new capacity', async () => {
    const id = account();
    expect((await take(id, 'production', 60)).remaining).toBe(59);
    expect(await take(id, 'production', 10)).toMatchObject({ limit: 10, remaining: 9 });
    expect(await take(id, 'production', 300)).toMatchObject({ limit: 300, remaining: 8 });
  });

  it('keeps production and sandbox apart', async () => {
    const id = account();
    await setState(id, 0);
    expect((await take(id, 'production', 60)).allowed).toBe(false);
    expect(await take(id, 'sandbox', 60)).toMatchObject({ allowed: true, remaining: 59 });
  });

  it('never admits more than capacity plus refill under concurrency', async () => {
    const id = account();
    const started = performance.now();
    const decisions = await Promise.all(Array.from({ length: 1000 }, () => take(id, 'production', 600)));
    const seconds = (performance.now() - started) / 1000;
    const admitted = decisions.filter((d) => d.allowed).length;
    expect(admitted).toBeGreaterThanOrEqual(600);
    expect(admitted).toBeLessThanOrEqual(600 + Math.ceil(seconds * 10));
  });

  it('refuses with UnavailableError when Redis does not answer', async () => {
    // A client that is not connected and does not queue: every command fails at once.
    const down = new Redis({ lazyConnect: true, enableOfflineQueue: false });
    try {
      await expect(new TokenBucket(down, keys).take(account(), 'production', 60)).rejects.toBeInstanceOf(
        UnavailableError,
      );
    } finally {
      down.disconnect();
    }
  });

  describe('watched keys', () => {
    const watchKeys = () => {
      const tag = randomBytes(4).toString('hex');
      return [keys.key('test', 'generation', tag), keys.key('test', 'other', tag)];
    };

    it('reads them in the same step as the take, null when missing', async () => {
      const id = account();
      const [generation, other] = watchKeys();
      await redis.set(other, 'v1');
      const reply = await bucket.take(id, 'production', 60, { keys: [generation, other] });
      expect(reply).toEqual({
        decision: expect.objectContaining({ allowed: true, remaining: 59 }),
        watched: [null, 'v1'],
      });
    });

    it('takes the token only while the first key holds the expected value', async () => {
      const id = account();
      const [generation, other] = watchKeys();
      await redis.set(generation, 'g1');
      const current = await bucket.take(id, 'production', 60, { keys: [generation, other], expected: 'g1' });
      expect(current.decision).toMatchObject({ allowed: true, remaining: 59 });

      await redis.set(generation, 'g2');
      const stale = await bucket.take(id, 'production', 60, { keys: [generation, other], expected: 'g1' });
      expect(stale).toEqual({ decision: null, watched: ['g2', null] });
      // Nothing was taken by the stale call.
      expect((await take(id, 'production', 60)).remaining).toBe(58);
    });

    it('treats an expected null as "the key is missing"', async () => {
      const id = account();
      const [generation] = watchKeys();
      expect(
        (await bucket.take(id, 'production', 60, { keys: [generation], expected: null })).decision,
      ).toMatchObject({ allowed: true });
      await redis.set(generation, 'g1');
      expect(await bucket.take(id, 'production', 60, { keys: [generation], expected: null })).toEqual({
        decision: null,
        watched: ['g1'],
      });
    });
  });

  it('looks without taking or writing when peeking (the failed-authentication bucket looks first)', async () => {
    const key = keys.key('authfail', `peek-${randomBytes(4).toString('hex')}`);
    expect((await bucket.takeFrom(key, 2, undefined, true)).decision).toMatchObject({ allowed: true });
    expect(await redis.exists(key)).toBe(0);
    await bucket.takeFrom(key, 2);
    await bucket.takeFrom(key, 2);
    const peek = (await bucket.takeFrom(key, 2, undefined, true)).decision!;
    expect(peek).toMatchObject({ allowed: false, remaining: 0 });
    expect(peek.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });
});
