import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { QuotaService } from '@app/auth';
import type { SharedEnv } from '@app/config';
import { decodeCursor } from '@app/persistence';
import { NO_METADATA, RENDERED_NOW, type PageResult } from '@app/queue-contracts';
import { CrawlPages } from './crawl-pages';
import { Job, JobPage } from './entities';
import { JobIntake } from './job-intake';
import { JobLifecycle } from './job-lifecycle';
import { JobResultsReader } from './job-results.reader';
import { PageProgress } from './page-progress';
import { QuotaGiveBack } from './quota-give-back';
import { openJobStore } from '../test/job-store';

const KiB = 1024;
const BUDGET = 256 * KiB;

/** Reading a job's results is paged by bytes as well as by count (real MySQL). */
describe('job results paged by bytes', () => {
  let db: DataSource;
  let intake: JobIntake;
  let lifecycle: JobLifecycle;
  let pages: PageProgress;
  let crawlPages: CrawlPages;
  let reader: JobResultsReader;

  beforeAll(async () => {
    let quota: QuotaService;
    ({ db, quota, intake } = await openJobStore());
    lifecycle = new JobLifecycle(db, new QuotaGiveBack(db, quota));
    pages = new PageProgress(db);
    crawlPages = new CrawlPages(db);
    reader = new JobResultsReader(db.getRepository(JobPage), { RESULT_PAGE_MAX_BYTES: BUDGET } as SharedEnv);
  });
  afterAll(async () => db.destroy());

  const result = (index: number, markdownBytes: number): PageResult => ({
    index,
    url: `https://site.test/${index}`,
    final_url: `https://site.test/${index}`,
    status_code: 200,
    markdown: 'm'.repeat(markdownBytes),
    metadata: { ...NO_METADATA, engine: 'playwright', ...RENDERED_NOW },
    timings: { total_ms: 10, render_ms: 5 },
  });

  /** A crawl whose pages finish with these markdown sizes, in index order; `failures` fail instead. */
  const crawlWith = async (sizes: number[], failures: Record<number, PageResult> = {}): Promise<string> => {
    const auth = {
      accountId: `acc_${randomBytes(6).toString('hex')}`,
      environment: 'production' as const,
      plan: { id: 0, name: 'test', ratePerMinute: 60, monthlyQuota: 1000, maxConcurrentPages: 2 },
    };
    const { jobId } = await intake.accept(
      auth,
      {
        type: 'crawl',
        url: 'https://site.test/0',
        options: {},
        webhookUrl: null,
        pages: ['https://site.test/0'],
        reserve: sizes.length,
      },
      { body: {} },
    );
    await lifecycle.markRunning(jobId);
    await crawlPages.addChildren(
      jobId,
      sizes.slice(1).map((_, i) => ({ idx: i + 1, url: `https://site.test/${i + 1}`, depth: 1 })),
    );
    for (const [idx, size] of sizes.entries()) {
      await pages.markRunning(jobId, idx);
      await pages.finish(jobId, failures[idx] ?? result(idx, size));
    }
    return jobId;
  };

  /** Every read from the start, following `next` until it is null (or, for a running job, `reads`). */
  const follow = async (job: Job, pageSize: number, reads = Infinity) => {
    const seen: { indices: number[]; bytes: number }[] = [];
    let from: number | null = 0;
    while (from !== null && seen.length < reads) {
      const { data, next } = await reader.pageOfResults(job, from, pageSize);
      seen.push({ indices: data.map((r) => r.index), bytes: Buffer.byteLength(JSON.stringify(data)) });
      from = next === null ? null : decodeCursor(next, 'idx');
    }
    return seen;
  };

  it('holds at most the byte budget, at least one result, and ends only at next: null', async () => {
    // Small pages, one page larger than the whole budget, then pages a third of it each.
    const sizes = [10, 10, 10, 400 * KiB, 90 * KiB, 90 * KiB, 90 * KiB, 90 * KiB, 10];
    const jobId = await crawlWith(sizes);
    expect(await lifecycle.finishIfDone(jobId)).toBe('completed');
    const job = await db.getRepository(Job).findOneByOrFail({ id: jobId });

    const reads = await follow(job, 100);
    expect(reads.flatMap((r) => r.indices)).toEqual(sizes.map((_, i) => i));
    for (const read of reads) {
      expect(read.indices.length).toBeGreaterThanOrEqual(1);
      if (read.indices.length > 1) expect(read.bytes).toBeLessThanOrEqual(BUDGET);
    }
    expect(reads.map((r) => r.indices)).toEqual([[0, 1, 2], [3], [4, 5], [6, 7, 8]]);
    // The count still bounds a read of small results.
    expect((await follow(job, 2)).map((r) => r.indices)).toEqual([[0, 1], [2], [3], [4, 5], [6, 7], [8]]);
  });

  it('keeps next while a job runs, even when a read ends at the byte budget', async () => {
    const jobId = await crawlWith([200 * KiB, 200 * KiB]);
    const job = await db.getRepository(Job).findOneByOrFail({ id: jobId });
    const reads = await follow(job, 100, 3);
    expect(reads.map((r) => r.indices)).toEqual([[0], [1], []]);
  });

  it('lists the failures without an answer from their target, in index order, up to a limit', async () => {
    const failed = (index: number, code: 'DNS' | 'HTTP_4XX' | 'TIMEOUT', status: number | null) => ({
      ...result(index, 0),
      status_code: status,
      error: { code, message: code },
    });
    const failures = {
      1: failed(1, 'DNS', null),
      2: failed(2, 'HTTP_4XX', 404),
      4: failed(4, 'TIMEOUT', null),
    };
    const jobId = await crawlWith([10, 10, 10, 10, 10], failures);
    expect((await reader.unansweredFailures(jobId, 10)).map((r) => [r.index, r.error?.code])).toEqual([
      [1, 'DNS'],
      [4, 'TIMEOUT'],
    ]);
    expect((await reader.unansweredFailures(jobId, 1)).map((r) => r.index)).toEqual([1]);
  });
});
