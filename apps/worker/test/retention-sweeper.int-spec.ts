import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@app/persistence';
import { RetentionSweeper } from '../src/maintenance/retention-sweeper.service';
import { insertEndedJob, pageResult } from '../../../test/support/ended-jobs';
import { ApiHarness, createAccount, startApi } from '../../../test/support/api-harness';

describe('retention sweeper', () => {
  let api: ApiHarness;
  let db: DataSource;

  beforeAll(async () => {
    api = await startApi();
    db = new DataSource(dataSourceOptions(process.env.DATABASE_URL!, 2));
    await db.initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await api.close();
  });

  it('deletes jobs past expires_at with their pages, and keeps the others', async () => {
    const account = await createAccount(api);
    const pages = [pageResult(0), pageResult(1)];
    const expired = await insertEndedJob(db, {
      accountId: account.id,
      type: 'batch',
      webhookUrl: null,
      pages,
    });
    const kept = await insertEndedJob(db, { accountId: account.id, type: 'batch', webhookUrl: null, pages });
    await db.query('UPDATE jobs SET expires_at = ? WHERE id = ?', [new Date(Date.now() - 1000), expired]);

    const deleted = await new RetentionSweeper(db).sweep();
    expect(deleted).toBeGreaterThanOrEqual(1);
    const count = async (table: string, id: string) =>
      Number(
        (
          await db.query(
            `SELECT COUNT(*) AS n FROM ${table} WHERE ${table === 'jobs' ? 'id' : 'job_id'} = ?`,
            [id],
          )
        )[0].n,
      );
    expect([await count('jobs', expired), await count('job_pages', expired)]).toEqual([0, 0]);
    expect([await count('jobs', kept), await count('job_pages', kept)]).toEqual([1, 2]);
    await api.http().get(`/v1/jobs/${expired}`).set('Authorization', `Bearer ${account.liveKey}`).expect(404);
    await api.http().get(`/v1/jobs/${kept}`).set('Authorization', `Bearer ${account.liveKey}`).expect(200);
  });
});
