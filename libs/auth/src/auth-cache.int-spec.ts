import Redis from 'ioredis';
import { loadSharedEnv } from '@app/config';
import { UnavailableError } from '@app/common';
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
  afterEach(() => jest.restoreAllMocks());

  const auth: AuthContext = {
    accountId: 'acc_1',
    email: 'a@example.test',
    environment: 'production',
    keyId: 'key_1',
    plan: { id: 1, name: 'starter', ratePerMinute: 60, monthlyQuota: 1000, maxConcurrentPages: 2 },
  };

  it('remembers an entry with the generation read before its load', async () => {
    const generation = await a.generation();
    a.remember('h1', auth, generation);
    expect(a.get('h1')).toMatchObject({ auth, generation });
    expect(a.get('h2')).toBeUndefined();
  });

  it('gives every replica a new generation on invalidate, and empties the caller', async () => {
    a.remember('h3', auth, await a.generation());
    b.remember('h3', auth, await b.generation());
    const before = await a.generation();
    await b.invalidate();
    const after = await a.generation();
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
    expect(b.get('h3')).toBeUndefined();
    // a still holds its entry, but under the old generation: the token bucket's check refuses it.
    expect(a.get('h3')?.generation).toBe(before);
  });

  it('forgets an entry after a few seconds, for changes made behind its back', () => {
    const now = Date.now();
    a.remember('h4', auth, 'g');
    jest.spyOn(Date, 'now').mockReturnValue(now + 4000);
    expect(a.get('h4')).toBeDefined();
    jest.spyOn(Date, 'now').mockReturnValue(now + 6000);
    expect(a.get('h4')).toBeUndefined();
  });

  it('answers 503 when Redis does not answer', async () => {
    const down = new Redis({ lazyConnect: true, enableOfflineQueue: false });
    try {
      await expect(new AuthCache(down, keys).generation()).rejects.toBeInstanceOf(UnavailableError);
    } finally {
      down.disconnect();
    }
  });
});
