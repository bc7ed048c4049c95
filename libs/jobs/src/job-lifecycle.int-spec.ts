import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { QuotaService } from '@app/auth';
import { NO_METADATA, RENDERED_NOW, type PageResult } from '@app/queue-contracts';
import { CrawlPages } from './crawl-pages';
import { JobIntake } from './job-intake';
import { JobLifecycle } from './job-lifecycle';
import { PageProgress } from './page-progress';
import { QuotaGiveBack } from './quota-give-back';
import { openJobStore } from '../test/job-store';

/** A crawl's life against real MySQL: what it reserved, what it used, what goes back, once. */
describe('job lifecycle and the quota give-back (real MySQL)', () => {
  let db: DataSource;
  let intake: JobIntake;
  let lifecycle: JobLifecycle;
  let pages: PageProgress;
  let crawlPages: CrawlPages;
  let giveBack: QuotaGiveBack;

  beforeAll(async () => {
    let quota: QuotaService;
    ({ db, quota, intake } = await openJobStore(4));
    giveBack = new QuotaGiveBack(db, quota);
    lifecycle = new JobLifecycle(db, giveBack);
    pages = new PageProgress(db);
    crawlPages = new CrawlPages(db);
  });
  afterAll(async () => db.destroy());

  const owner = () => ({
    accountId: `acc_${randomBytes(6).toString('hex')}`,
    environment: 'production' as const,
    plan: { id: 0, name: 'test', ratePerMinute: 60, monthlyQuota: 1000, maxConcurrentPages: 2 },
  });
  const reserved = async (accountId: string) =>
    Number(
      (await db.query('SELECT SUM(reserved) AS r FROM quota_monthly WHERE account_id = ?', [accountId]))[0]
        ?.r ?? 0,
    );
  const result = (index: number, error?: PageResult['error']): PageResult => ({
    index,
    url: `https://site.test/${index}`,
    final_url: `https://site.test/${index}`,
    status_code: error ? null : 200,
    metadata: { ...NO_METADATA, engine: 'playwright', ...RENDERED_NOW },
    timings: { total_ms: 10, render_ms: 5 },
    ...(error ? { error } : {}),
  });
  const crawl = async (auth: ReturnType<typeof owner>) =>
    (
      await intake.accept(
        auth,
        {
          type: 'crawl',
          url: 'https://site.test/0',
          options: {},
          webhookUrl: null,
          pages: ['https://site.test/0'],
          reserve: 10,
        },
        { body: {} },
      )
    ).jobId;

  it('ends a crawl once and gives back what it did not fetch (skipped pages never cost)', async () => {
    const auth = owner();
    const jobId = await crawl(auth);
    expect(await reserved(auth.accountId)).toBe(10);
    await lifecycle.markRunning(jobId);
    expect(await pages.markRunning(jobId, 0)).toBe(true);
    const outOfScope = { code: 'OUT_OF_SCOPE' as const, message: 'elsewhere' };
    await crawlPages.addChildren(jobId, [
      { idx: 1, url: 'https://site.test/1', depth: 1 },
      { idx: 2, url: 'https://other.test/', depth: 1, skipped: { ...result(2), error: outOfScope } },
    ]);
    expect(await pages.finish(jobId, result(0))).toEqual(result(0));
    expect(await pages.finish(jobId, result(0))).toBeNull();
    expect(await lifecycle.finishIfDone(jobId)).toBeNull();
    expect(await pages.markRunning(jobId, 1)).toBe(true);
    // Each running mark counts a try of the page, read back with the pages still to render.
    expect(await pages.markRunning(jobId, 1)).toBe(true);
    expect(await pages.unfinished(jobId, 0, 3)).toEqual([{ idx: 1, url: expect.any(String), attempts: 2 }]);
    const failed = result(1, { code: 'HTTP_5XX', message: '500' });
    expect(await pages.finish(jobId, failed)).toEqual(failed);

    const ends = await Promise.all([lifecycle.finishIfDone(jobId), lifecycle.finishIfDone(jobId)]);
    expect(ends.sort()).toEqual(['completed', null]);
    // Two pages fetched (one failed, still fetched); the out-of-scope one cost nothing.
    expect(await reserved(auth.accountId)).toBe(2);
    // The reservation was lowered with the give-back: a second one finds nothing to give.
    await Promise.all([
      giveBack.giveBack(jobId, { holdRunning: false }),
      giveBack.giveBack(jobId, { holdRunning: false }),
    ]);
    expect(await reserved(auth.accountId)).toBe(2);
  });

  it('cancels once, keeps what is running, and starts no page after', async () => {
    const auth = owner();
    const jobId = await crawl(auth);
    await lifecycle.markRunning(jobId);
    expect(await pages.markRunning(jobId, 0)).toBe(true);
    await crawlPages.addChildren(jobId, [{ idx: 1, url: 'https://site.test/1', depth: 1 }]);

    const cancels = await Promise.all([lifecycle.cancel(jobId), lifecycle.cancel(jobId)]);
    expect(cancels.sort()).toEqual([false, true]);
    // The running page finishes and counts; the rest of the limit is back.
    expect(await reserved(auth.accountId)).toBe(1);
    expect(await pages.markRunning(jobId, 1)).toBe(false);
    expect(await lifecycle.cancelled(jobId)).toBe(true);
    expect(await pages.finish(jobId, result(0))).toEqual(result(0));
    expect(await lifecycle.finishIfDone(jobId)).toBeNull();
    expect(await reserved(auth.accountId)).toBe(1);
  });

  it('stores a result near the cap whole, however much of it SQL would escape, and one over it as TOO_LARGE', async () => {
    const jobId = await crawl(owner());
    await lifecycle.markRunning(jobId);
    // Quotes and newlines throughout: escaped into SQL text this would outgrow the 16 MiB packet.
    const markup = '<p class="a">"quoted"\n</p>\n'.repeat(Math.floor((10 * 1024 * 1024) / 26));
    const big = { ...result(0), raw_html: markup };
    expect(await pages.finish(jobId, big)).toEqual(big);
    const [row] = await db.query('SELECT result FROM job_pages WHERE job_id = ? AND idx = 0', [jobId]);
    expect(JSON.parse(row.result)).toEqual(big);

    await crawlPages.addChildren(jobId, [{ idx: 1, url: 'https://site.test/1', depth: 1 }]);
    const stored = await pages.finish(jobId, { ...result(1), raw_html: markup, html: markup });
    expect(stored?.error?.code).toBe('TOO_LARGE');
    expect(stored?.raw_html).toBeUndefined();
  });

  it('cancels a job whose row another transaction deadlocks it on, trying again', async () => {
    const jobId = await crawl(owner());
    await lifecycle.markRunning(jobId);
    // A reader of the job's row that then writes it, with the cancel waiting between: InnoDB
    // breaks the deadlock by rolling back the lighter statement, the cancel.
    const other = db.createQueryRunner();
    await other.startTransaction();
    await other.query('SELECT id FROM jobs WHERE id = ? LOCK IN SHARE MODE', [jobId]);
    const cancelled = lifecycle.cancel(jobId);
    await new Promise((r) => setTimeout(r, 300));
    await other.query('UPDATE jobs SET total = total WHERE id = ?', [jobId]).catch(() => undefined);
    await other.commitTransaction().catch(() => undefined);
    await other.release();
    await expect(cancelled).resolves.toBe(true);
    expect(await lifecycle.cancelled(jobId)).toBe(true);
  });
});
