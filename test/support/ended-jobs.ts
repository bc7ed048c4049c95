import type { DataSource } from 'typeorm';
import { newId } from '@app/common';
import { Environment } from '@app/persistence';
import { Job, JobPage, JobStatus, JobType } from '@app/jobs';
import { NO_METADATA, RENDERED_NOW, type PageResult } from '@app/queue-contracts';

/** A page result as the worker stores it; `error` makes it a failed page. */
export function pageResult(index: number, overrides: Partial<PageResult> = {}): PageResult {
  const url = `https://site.test/page/${index}`;
  return {
    index,
    url,
    final_url: url,
    status_code: 200,
    markdown: `# Page ${index}\n\nSome text of page ${index}.`,
    metadata: { ...NO_METADATA, title: `Page ${index}`, language: 'en', engine: 'http', ...RENDERED_NOW },
    timings: { total_ms: 12, render_ms: 10 },
    ...overrides,
  };
}

export interface EndedJob {
  accountId: string;
  environment?: Environment;
  type?: JobType;
  status?: Extract<JobStatus, 'completed' | 'failed' | 'cancelled'>;
  webhookUrl: string | null;
  /** Finished pages in index order (default: one good page). */
  pages?: PageResult[];
  errorCode?: string;
  errorMessage?: string;
}

/**
 * A job that has ended, written straight into MySQL as the worker leaves it (job row, finished
 * page rows with their result JSON), for tests of what happens after a job ends.
 */
export async function insertEndedJob(db: DataSource, spec: EndedJob): Promise<string> {
  const id = newId('job');
  const pages = spec.pages ?? [pageResult(0)];
  const failed = pages.filter((p) => p.error).length;
  const now = new Date();
  await db.transaction(async (em) => {
    await em.getRepository(Job).insert({
      id,
      accountId: spec.accountId,
      environment: spec.environment ?? 'production',
      type: spec.type ?? 'scrape',
      status: spec.status ?? 'completed',
      url: spec.type === 'batch' ? null : (pages[0]?.url ?? 'https://site.test/'),
      options: { formats: ['markdown'] },
      webhookUrl: spec.webhookUrl,
      total: pages.length,
      completed: pages.length - failed,
      failed,
      errorCode: spec.errorCode ?? null,
      errorMessage: spec.errorMessage ?? null,
      createdAt: now,
      startedAt: now,
      finishedAt: now,
      expiresAt: new Date(now.getTime() + 7 * 24 * 3600 * 1000),
    });
    if (pages.length) {
      await em.getRepository(JobPage).insert(
        pages.map((p) => ({
          jobId: id,
          idx: p.index,
          url: p.url,
          status: p.error ? ('failed' as const) : ('succeeded' as const),
          statusCode: p.status_code,
          errorCode: p.error?.code ?? null,
          result: JSON.stringify(p),
          finishedAt: now,
        })),
      );
    }
  });
  return id;
}

/** `days` days of usage up to today, each with a different count of pages, some failed. */
export async function insertUsageDays(db: DataSource, accountId: string, days: number): Promise<void> {
  const today = Date.parse(new Date().toISOString().slice(0, 10));
  for (let i = 0; i < days; i++) {
    const day = new Date(today - i * 86_400_000).toISOString().slice(0, 10);
    const pages = 40 + ((i * 37) % 60);
    const failed = i % 4;
    await db.query(
      'INSERT INTO usage_daily (account_id, environment, day, pages, succeeded, failed, render_ms_total) VALUES (?,?,?,?,?,?,?)',
      [accountId, 'production', day, pages, pages - failed, failed, pages * 420],
    );
  }
}
