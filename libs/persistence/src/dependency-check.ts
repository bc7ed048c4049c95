import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';

async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Readiness of the two stores, each 'ok' or the reason it is not. */
export async function checkDependencies(
  db: DataSource,
  redis: Redis,
  timeoutMs = 2000,
): Promise<{ mysql: string; redis: string }> {
  const [mysql, cache] = await Promise.allSettled([
    within(timeoutMs, db.query('SELECT 1')),
    within(timeoutMs, redis.ping()),
  ]);
  const describe = (r: PromiseSettledResult<unknown>) =>
    r.status === 'fulfilled' ? 'ok' : String((r.reason as Error)?.message ?? r.reason);
  return { mysql: describe(mysql), redis: describe(cache) };
}
