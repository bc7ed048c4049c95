import Redis from 'ioredis';
import { DataSource } from 'typeorm';

export default async function globalTeardown(): Promise<void> {
  const url = new URL(process.env.DATABASE_URL!);
  const name = url.pathname.slice(1);
  if (!name.startsWith('scraper_test_')) return;
  url.pathname = '/';
  const admin = new DataSource({ type: 'mysql', url: url.toString() });
  await admin.initialize();
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.destroy();

  const redis = new Redis(process.env.REDIS_URL!);
  const stream = redis.scanStream({ match: `${process.env.REDIS_PREFIX}*`, count: 1000 });
  for await (const keys of stream as AsyncIterable<string[]>) if (keys.length) await redis.unlink(...keys);
  redis.disconnect();
}
