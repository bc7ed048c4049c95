import { randomBytes, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { loadSharedEnv } from '@app/config';
import { Environment, RedisKeys, dataSourceOptions, ensureDatabase } from '@app/persistence';
import { UsageFlusher } from './usage-flusher';
import { UsageKeys, UsageRecorder } from './usage-recorder';

interface Totals {
  pages: number;
  succeeded: number;
  failed: number;
  render_ms_total: number;
}

/** Two replicas' worth of flushers, each with its own Redis connection and MySQL pool. */
describe('usage counters (real Redis and MySQL)', () => {
  const keys = new UsageKeys(new RedisKeys(loadSharedEnv()));
  const redises: Redis[] = [];
  const sources: DataSource[] = [];
  let recorder: UsageRecorder;
  let flushers: UsageFlusher[];
  let db: DataSource;

  const replica = async (databaseUrl = process.env.DATABASE_URL!) => {
    const redis = new Redis(process.env.REDIS_URL!);
    // Errors reach the tests as rejections; TypeORM's own console copy is noise here.
    const source = new DataSource({ ...dataSourceOptions(databaseUrl, 4), logging: false });
    await source.initialize();
    redises.push(redis);
    sources.push(source);
    return { redis, source, flusher: new UsageFlusher(redis, source, keys) };
  };

  beforeAll(async () => {
    const [a, b] = [await replica(), await replica()];
    db = a.source;
    recorder = new UsageRecorder(a.redis, keys);
    flushers = [a.flusher, b.flusher];
  });
  afterAll(async () => {
    await Promise.all(redises.map((r) => r.quit()));
    await Promise.all(sources.map((s) => s.destroy()));
  });

  const account = () => `acc_${randomBytes(6).toString('hex')}`;
  const day = new Date().toISOString().slice(0, 10);

  const totals = async (accountId: string, environment: Environment): Promise<Totals> => {
    const [row] = await db.query<Totals[]>(
      `SELECT pages, succeeded, failed, render_ms_total FROM usage_daily
        WHERE account_id = ? AND environment = ? AND day = ?`,
      [accountId, environment, day],
    );
    return row
      ? {
          pages: row.pages,
          succeeded: row.succeeded,
          failed: row.failed,
          render_ms_total: Number(row.render_ms_total),
        }
      : { pages: 0, succeeded: 0, failed: 0, render_ms_total: 0 };
  };

  it('counts every page exactly once while two replicas flush concurrently with the recording', async () => {
    const accounts = [account(), account(), account()];
    const expected = new Map<string, Totals>();
    const pages = Array.from({ length: 600 }, (_, i) => ({
      accountId: accounts[i % 3],
      environment: i % 2 ? ('production' as const) : ('sandbox' as const),
      succeeded: i % 5 !== 0,
      renderMs: (i * 7919) % 3000,
    }));
    for (const p of pages) {
      const key = `${p.accountId}:${p.environment}`;
      const t = expected.get(key) ?? { pages: 0, succeeded: 0, failed: 0, render_ms_total: 0 };
      t.pages++;
      t[p.succeeded ? 'succeeded' : 'failed']++;
      t.render_ms_total += p.renderMs;
      expected.set(key, t);
    }
    let recording = true;
    const flushing = flushers.map(async (f) => {
      while (recording) await f.flush();
    });
    for (let i = 0; i < pages.length; i += 50) {
      await Promise.all(pages.slice(i, i + 50).map((p) => recorder.record(p.accountId, p.environment, p)));
    }
    recording = false;
    await Promise.all(flushing);
    await flushers[0].flush();
    for (const [key, want] of expected) {
      const [accountId, environment] = key.split(':');
      expect(await totals(accountId, environment as Environment)).toEqual(want);
    }
  });

  /** Leaves a batch claimed in Redis as a flusher that stopped after claiming it would. */
  const strandBatch = async (accountId: string, pages: number): Promise<string> => {
    const id = randomUUID();
    await redises[0]
      .multi()
      .hset(keys.pendingBatch(id), {
        [`${accountId}:production:${day}:pages`]: pages,
        [`${accountId}:production:${day}:succeeded`]: pages,
        [`${accountId}:production:${day}:render_ms`]: pages * 100,
      })
      .sadd(keys.pendingBatches, id)
      .exec();
    return id;
  };
  const stranded = (pages: number): Totals => ({
    pages,
    succeeded: pages,
    failed: 0,
    render_ms_total: pages * 100,
  });

  it('writes a batch stranded before its MySQL write exactly once', async () => {
    const id = account();
    await strandBatch(id, 3);
    await Promise.all(flushers.map((f) => f.flush()));
    await flushers[1].flush();
    expect(await totals(id, 'production')).toEqual(stranded(3));
  });

  it('does not write again a batch whose MySQL write committed before the flusher stopped', async () => {
    const id = account();
    const batch = await strandBatch(id, 4);
    // What the stopped flusher's committed transaction left behind.
    await db.transaction(async (em) => {
      await em.query('INSERT INTO usage_flushes (id) VALUES (?)', [batch]);
      await em.query(
        `INSERT INTO usage_daily (account_id, environment, day, pages, succeeded, failed, render_ms_total)
         VALUES (?, 'production', ?, 4, 4, 0, 400)`,
        [id, day],
      );
    });
    await flushers[0].flush();
    expect(await totals(id, 'production')).toEqual(stranded(4));
    expect(await redises[0].sismember(keys.pendingBatches, batch)).toBe(0);
  });

  it('keeps the counts in Redis when MySQL refuses the write, and a later flush writes them', async () => {
    // A replica whose database has no usage tables: its transaction fails for real.
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/scraper_test_nousage_${randomBytes(4).toString('hex')}`;
    await ensureDatabase(url.toString());
    const broken = await replica(url.toString());
    try {
      const id = account();
      await recorder.record(id, 'production', { succeeded: false, renderMs: 30_000 });
      await expect(broken.flusher.flush()).rejects.toThrow(/usage_flushes/);
      expect(await totals(id, 'production')).toEqual({
        pages: 0,
        succeeded: 0,
        failed: 0,
        render_ms_total: 0,
      });
      await flushers[0].flush();
      expect(await totals(id, 'production')).toEqual({
        pages: 1,
        succeeded: 0,
        failed: 1,
        render_ms_total: 30_000,
      });
    } finally {
      await broken.source.query(`DROP DATABASE \`${url.pathname.slice(1)}\``);
    }
  });
});
