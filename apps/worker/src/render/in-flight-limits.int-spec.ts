import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { loadSharedEnv } from '@app/config';
import { RedisKeys } from '@app/persistence';
import { InFlightLimits } from './in-flight-limits';

// Leases last 300 ms unrenewed here, renewed every 100 ms (20 s and 5 s in a worker).
describe('InFlightLimits (real Redis)', () => {
  const keys = new RedisKeys(loadSharedEnv());
  const timing = { expireMs: 300, renewMs: 100 };
  let redis: Redis;
  const workers: InFlightLimits[] = [];
  const worker = () => {
    const limits = new InFlightLimits(redis, keys, timing);
    limits.onApplicationBootstrap();
    workers.push(limits);
    return limits;
  };
  const oneSlot = () => [{ key: `host:${randomBytes(6).toString('hex')}.test`, limit: 1 }];

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!);
  });
  afterAll(async () => {
    for (const limits of workers) await limits.onApplicationShutdown();
    await redis.quit();
  });

  it('keeps a slot its worker holds past the unrenewed expiry, and frees it on release', async () => {
    const [a, b] = [worker(), worker()];
    const slot = oneSlot();
    const lease = await a.acquire(slot, 60_000);
    expect(lease).toMatchObject({ spare: 0 });
    await sleep(1_000);
    expect(await b.acquire(slot, 60_000)).toBeNull();
    await lease!.release();
    expect(await b.acquire(slot, 60_000)).not.toBeNull();
  });

  it("frees a dead worker's slot once its lease expires unrenewed", async () => {
    const [dead, alive] = [worker(), worker()];
    const slot = oneSlot();
    expect(await dead.acquire(slot, 60_000)).not.toBeNull();
    // A worker killed: nothing renews its leases any more.
    await dead.onApplicationShutdown();
    expect(await alive.acquire(slot, 60_000)).toBeNull();
    await sleep(500);
    expect(await alive.acquire(slot, 60_000)).not.toBeNull();
  });

  it("renews a lease no further than its holder's limit", async () => {
    const [a, b] = [worker(), worker()];
    const slot = oneSlot();
    expect(await a.acquire(slot, 400)).not.toBeNull();
    await sleep(200);
    expect(await b.acquire(slot, 60_000)).toBeNull();
    await sleep(600);
    expect(await b.acquire(slot, 60_000)).not.toBeNull();
  });
});
