import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { ensureDatabase, runMigrationsLocked } from './migrate';
import { MIGRATIONS } from './migrations';

describe('migrations', () => {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/scraper_test_mig_${randomBytes(4).toString('hex')}`;
  const databaseUrl = url.toString();
  const sources: DataSource[] = [];

  afterAll(async () => {
    await Promise.all(sources.map((s) => s.destroy()));
    const admin = new DataSource({ type: 'mysql', url: process.env.DATABASE_URL! });
    await admin.initialize();
    await admin.query(`DROP DATABASE IF EXISTS \`${url.pathname.slice(1)}\``);
    await admin.destroy();
  });

  it('run once when two replicas start together, and a second run is a no-op', async () => {
    await ensureDatabase(databaseUrl);
    const [a, b] = [
      new DataSource(dataSourceOptions(databaseUrl, 2)),
      new DataSource(dataSourceOptions(databaseUrl, 2)),
    ];
    sources.push(a, b);
    await Promise.all([a.initialize(), b.initialize()]);
    const [first, second] = await Promise.all([runMigrationsLocked(a), runMigrationsLocked(b)]);
    const applied = [...first, ...second];
    expect(applied).toHaveLength(MIGRATIONS.length);
    expect(new Set(applied).size).toBe(MIGRATIONS.length);
    expect([first.length, second.length]).toContain(0);
    expect(await runMigrationsLocked(a)).toEqual([]);
    const plans = await a.query<{ name: string }[]>('SELECT name FROM plans ORDER BY rate_per_minute');
    expect(plans.map((p) => p.name)).toEqual(['free', 'starter', 'pro', 'enterprise']);
    const [row] = await a.query<{ n: string }[]>('SELECT COUNT(*) AS n FROM migrations');
    expect(Number(row.n)).toBe(MIGRATIONS.length);
  });

  it('leaves no drift between the entities and the committed migrations', async () => {
    const ds = sources[0];
    const pending = await ds.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });
});
