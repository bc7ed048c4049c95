import Redis from 'ioredis';
import { loadSharedEnv } from '@app/config';
import { RedisKeys } from '@app/persistence';
import { AuthCache } from './auth-cache';
import type { AuthContext } from './auth-context';

describe('AuthCache (real Redis, two replicas)', () => {
  const keys = new RedisKeys(loadSharedEnv());
  let redises: Redis[];
  let a: AuthCache;
  let b: AuthCache;

  beforeAll(() => {
    redises = [new Redis(process.env.REDIS_URL!), new Redis(process.env.REDIS_URL!)];
    [a, b] = redises.map((r) => new AuthCache(r, keys));
  });
  afterAll(async () => Promise.all(redises.map((r) => r.quit())));

  const context = (plan: string): AuthContext => ({
    accountId: 'acc_1',
    email: 'a@example.test',
    environment: 'production',
    keyId: 'key_1',
    plan: { id: 1, name: plan, ratePerMinute: 60, monthlyQuota: 1000, maxConcurrentPages: 2 },
  });

  /** A load that counts its calls and answers the plan of the moment. */
  const source = (plan = 'starter') => {
    const s = { plan, calls: 0, load: async () => (s.calls++, context(s.plan)) };
    return s;
  };

  it('answers from memory until another replica invalidates, then reads the source again', async () => {
    const db = source();
    expect((await a.resolve('h1', db.load)).plan.name).toBe('starter');
    await a.resolve('h1', db.load);
    expect(db.calls).toBe(1);
    db.plan = 'pro';
    await b.invalidate();
    expect((await a.resolve('h1', db.load)).plan.name).toBe('pro');
    expect(db.calls).toBe(2);
  });

  it('never keeps as current an answer loaded while an invalidation happened', async () => {
    const db = source();
    const racing = async () => {
      const answer = await db.load();
      db.plan = 'pro';
      await b.invalidate();
      return answer;
    };
    expect((await a.resolve('h2', racing)).plan.name).toBe('starter');
    expect((await a.resolve('h2', db.load)).plan.name).toBe('pro');
  });

  it('does not remember a failed load', async () => {
    const refused = async (): Promise<AuthContext> => {
      throw new Error('unknown key');
    };
    await expect(a.resolve('h3', refused)).rejects.toThrow('unknown key');
    const db = source();
    await a.resolve('h3', db.load);
    expect(db.calls).toBe(1);
  });

  it('reads the source on every request while Redis does not answer', async () => {
    const down = new Redis({ lazyConnect: true, enableOfflineQueue: false });
    try {
      const cache = new AuthCache(down, keys);
      const db = source();
      await cache.resolve('h4', db.load);
      await cache.resolve('h4', db.load);
      expect(db.calls).toBe(2);
    } finally {
      down.disconnect();
    }
  });
});
