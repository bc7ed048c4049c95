import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { QuotaExceededError, toErrorResponse } from '@app/common';
import { Environment, QuotaMonthly, dataSourceOptions } from '@app/persistence';
import { QuotaService } from './quota.service';

describe('QuotaService (real MySQL)', () => {
  let db: DataSource;
  let quota: QuotaService;

  beforeAll(async () => {
    // A pool as wide as the burst, so the reservations really race in MySQL.
    db = new DataSource(dataSourceOptions(process.env.DATABASE_URL!, 20));
    await db.initialize();
    quota = new QuotaService(db.getRepository(QuotaMonthly));
  });
  afterAll(async () => db.destroy());

  const caller = (monthlyQuota: number, environment: Environment = 'production') => ({
    accountId: `acc_${randomBytes(6).toString('hex')}`,
    environment,
    plan: { id: 0, name: 'test', ratePerMinute: 60, monthlyQuota, maxConcurrentPages: 2 },
  });

  const reserved = async (accountId: string, environment: Environment, month: string) => {
    const rows = await db.query<{ reserved: number }[]>(
      'SELECT reserved FROM quota_monthly WHERE account_id = ? AND environment = ? AND month = ?',
      [accountId, environment, month],
    );
    return rows[0]?.reserved ?? 0;
  };

  const thisMonth = () => new Date().toISOString().slice(0, 8) + '01';

  it('lets exactly 10 of 20 concurrent 100-page reservations through a 1,000-page quota', async () => {
    const auth = caller(1000);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => quota.reserve(auth, 100)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(10);
    const nextMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1));
    for (const { reason } of refused) {
      expect(reason).toBeInstanceOf(QuotaExceededError);
      const answer = toErrorResponse(reason);
      expect(answer.status).toBe(402);
      expect(answer.body).toEqual({
        detail: 'Monthly quota exceeded',
        code: 'quota_exceeded',
        limit: 1000,
        used: 1000,
        resets_at: nextMonth.toISOString(),
      });
      expect(answer.headers['retry-after']).toBeUndefined();
    }
    expect(await reserved(auth.accountId, 'production', thisMonth())).toBe(1000);
  });

  it('never overspends with concurrent reservations of mixed sizes', async () => {
    const auth = caller(1000);
    const sizes = Array.from({ length: 40 }, (_, i) => 1 + ((i * 37) % 90));
    const results = await Promise.allSettled(sizes.map((n) => quota.reserve(auth, n)));
    const granted = sizes.filter((_, i) => results[i].status === 'fulfilled');
    const refusedSizes = sizes.filter((_, i) => results[i].status === 'rejected');
    const total = await reserved(auth.accountId, 'production', thisMonth());
    expect(total).toBe(granted.reduce((a, b) => a + b, 0));
    expect(total).toBeLessThanOrEqual(1000);
    // A request was refused only because it did not fit in what was left at the end.
    for (const n of refusedSizes) expect(n).toBeGreaterThan(1000 - total);
  });

  it('gives released pages back, never below zero', async () => {
    const auth = caller(500);
    await quota.reserve(auth, 500);
    await expect(quota.reserve(auth, 1)).rejects.toBeInstanceOf(QuotaExceededError);
    await quota.release(auth.accountId, 'production', 120, new Date());
    await quota.reserve(auth, 120);
    await expect(quota.reserve(auth, 1)).rejects.toMatchObject({ extra: { used: 500 } });
    await quota.release(auth.accountId, 'production', 10_000, new Date());
    expect(await reserved(auth.accountId, 'production', thisMonth())).toBe(0);
  });

  it('starts a fresh quota at the UTC month boundary (injected clock)', async () => {
    const auth = caller(100);
    const lastInstant = new Date('2027-01-31T23:59:59.999Z');
    const firstInstant = new Date('2027-02-01T00:00:00.000Z');
    await quota.reserve(auth, 100, lastInstant);
    await expect(quota.reserve(auth, 1, lastInstant)).rejects.toMatchObject({
      extra: { limit: 100, used: 100, resets_at: '2027-02-01T00:00:00.000Z' },
    });
    await quota.reserve(auth, 100, firstInstant);
    // A January job that ends in February gives its pages back to January.
    await quota.release(auth.accountId, 'production', 40, new Date('2027-01-15T00:00:00Z'));
    expect(await reserved(auth.accountId, 'production', '2027-01-01')).toBe(60);
    expect(await reserved(auth.accountId, 'production', '2027-02-01')).toBe(100);
  });

  it('keeps production and sandbox apart', async () => {
    const production = caller(50);
    const sandbox = { ...production, environment: 'sandbox' as const };
    await quota.reserve(production, 50);
    await expect(quota.reserve(production, 1)).rejects.toBeInstanceOf(QuotaExceededError);
    await quota.reserve(sandbox, 50);
  });

  it('applies a plan change to the next reservation', async () => {
    const auth = caller(100);
    await quota.reserve(auth, 100);
    await quota.reserve({ ...auth, plan: { ...auth.plan, monthlyQuota: 150 } }, 50);
    await expect(
      quota.reserve({ ...auth, plan: { ...auth.plan, monthlyQuota: 120 } }, 1),
    ).rejects.toMatchObject({
      extra: { limit: 120, used: 150 },
    });
  });

  it('refuses a reservation larger than the whole quota without touching the count', async () => {
    const auth = caller(1000);
    await quota.reserve(auth, 10);
    await expect(quota.reserve(auth, 1001)).rejects.toMatchObject({ extra: { used: 10 } });
    expect(await reserved(auth.accountId, 'production', thisMonth())).toBe(10);
  });
});
