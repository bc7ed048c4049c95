import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JobIntake } from './job-intake';
import { OpenJobs } from './open-jobs';
import { openJobStore } from '../test/job-store';

/** Where the reconciler restarts a job's chains of chunks after Redis lost its data (real MySQL). */
describe('open jobs: chain restarts (real MySQL)', () => {
  let db: DataSource;
  let intake: JobIntake;
  let open: OpenJobs;

  beforeAll(async () => {
    ({ db, intake } = await openJobStore());
    open = new OpenJobs(db);
  });
  afterAll(async () => db.destroy());

  /** A job of `total` pages of which those in `done` have finished. */
  async function jobWith(
    total: number,
    done: (idx: number) => boolean,
    options: Record<string, unknown> = {},
  ): Promise<string> {
    const pages = Array.from({ length: total }, (_, i) => `https://site.test/${i}`);
    const { jobId } = await intake.accept(
      {
        accountId: `acc_${randomBytes(6).toString('hex')}`,
        environment: 'production',
        plan: { id: 0, name: 'test', ratePerMinute: 60, monthlyQuota: 1000, maxConcurrentPages: 15 },
      },
      { type: 'crawl', url: pages[0], options, webhookUrl: null, pages },
      { body: {} },
    );
    const finished = pages.map((_, i) => i).filter(done);
    if (finished.length)
      await db.query(`UPDATE job_pages SET status = 'succeeded' WHERE job_id = ? AND idx IN (?)`, [
        jobId,
        finished,
      ]);
    return jobId;
  }

  it('restarts each chain at its first unfinished chunk, past chunks that finished out of order', async () => {
    // Chunks of 5 in 3 chains (chunk number mod 3). Chunks 0-3 and 5 finished; chunk 4 (pages
    // 20-24) did not, and chunk 7 has one page left. Chain 0: chunks 0, 3, 6, 9 -> 6 (page 30).
    // Chain 1: chunks 1, 4, 7 -> 4 (page 20). Chain 2: chunks 2, 5, 8 -> 8 (page 40).
    const jobId = await jobWith(50, (i) => i < 20 || (i >= 25 && i < 30) || (i >= 35 && i < 39));
    expect(await open.chainRestarts(jobId, 5, 3)).toEqual([20, 30, 40]);
  });

  it('finds nothing to restart once every page has finished', async () => {
    const jobId = await jobWith(12, () => true);
    expect(await open.chainRestarts(jobId, 5, 3)).toEqual([]);
  });

  it('restarts a chain whose only unfinished page is the last of its chunk', async () => {
    const jobId = await jobWith(12, (i) => i !== 9);
    expect(await open.chainRestarts(jobId, 5, 3)).toEqual([5]);
  });

  it("says which open jobs' pages are on a session (the reconciler keeps one chain for them)", async () => {
    const plain = await jobWith(3, () => false);
    const onSession = await jobWith(3, () => false, { session_id: 'cart-1' });
    await db.query(`UPDATE jobs SET status = 'running' WHERE id IN (?)`, [[plain, onSession]]);
    const running = new Map((await open.running()).map((job) => [job.id, job.on_session]));
    expect([running.get(plain), running.get(onSession)]).toEqual([false, true]);
  });
});
