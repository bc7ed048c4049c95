import { randomUUID } from 'node:crypto';
import type { JobAccepted, JobView } from '@app/jobs';
import { BackendRefusal } from '@app/mcp';
import type { PageResult } from '@app/queue-contracts';

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

/** What a running in-process job is given: where its pages go, and when to stop starting new ones. */
export interface JobRun {
  signal: AbortSignal;
  /** Pages the job knows of (a crawl's grows as it discovers them). */
  addTotal(pages: number): void;
  finish(result: PageResult): void;
}

interface LocalJob {
  view: Omit<JobView, 'result'>;
  results: PageResult[];
  controller: AbortController;
}

/**
 * A batch's or crawl's jobs in this process only, shaped as GET /v1/jobs/{id} answers them, so
 * `jobStatus` and `cancel` work as they do against the API. Results are paged in the order the
 * pages finished; the cursor is a position in that list.
 */
export class LocalJobs {
  private readonly jobs = new Map<string, LocalJob>();

  start(type: 'batch' | 'crawl', work: (run: JobRun) => Promise<void>): JobAccepted {
    const id = `job_local_${randomUUID()}`;
    const now = new Date().toISOString();
    const job: LocalJob = {
      view: {
        job_id: id,
        type,
        status: 'running',
        created_at: now,
        started_at: now,
        finished_at: null,
        // Nothing outlives the process.
        expires_at: now,
        total: 0,
        completed: 0,
        failed: 0,
      },
      results: [],
      controller: new AbortController(),
    };
    this.jobs.set(id, job);
    const run: JobRun = {
      signal: job.controller.signal,
      addTotal: (pages) => (job.view.total += pages),
      finish: (result) => {
        job.results.push(result);
        if (result.error) job.view.failed++;
        else job.view.completed++;
      },
    };
    void work(run).then(
      () => this.end(job, job.view.completed === 0 && job.view.failed > 0 ? 'failed' : 'completed'),
      () => this.end(job, 'failed'),
    );
    return { status: 'queued', job_id: id };
  }

  status(jobId: string, page: { cursor?: string; page_size?: number } = {}): JobView {
    const job = this.find(jobId);
    const from = page.cursor === undefined ? 0 : Number(page.cursor);
    if (!Number.isInteger(from) || from < 0)
      throw new BackendRefusal('invalid_request', 'cursor: not valid', 400);
    const size = Math.min(MAX_PAGE_SIZE, Math.max(1, page.page_size ?? DEFAULT_PAGE_SIZE));
    const data = job.results.slice(from, from + size);
    const to = from + data.length;
    const ended = job.view.finished_at !== null;
    return { ...job.view, result: { data, next: ended && to >= job.results.length ? null : String(to) } };
  }

  /** No new page starts; pages already rendering finish and are kept. */
  cancel(jobId: string): JobView {
    const job = this.find(jobId);
    if (job.view.finished_at === null) {
      job.controller.abort();
      this.end(job, 'cancelled');
    }
    return this.status(jobId);
  }

  /** Stops every job still running (the process is ending). */
  cancelAll(): void {
    for (const id of this.jobs.keys()) this.cancel(id);
  }

  private end(job: LocalJob, status: 'completed' | 'failed' | 'cancelled'): void {
    if (job.view.finished_at !== null) return;
    job.view.status = status;
    job.view.finished_at = new Date().toISOString();
  }

  private find(jobId: string): LocalJob {
    const job = this.jobs.get(jobId);
    if (!job) throw new BackendRefusal('not_found', `no job ${jobId} in this process`, 404);
    return job;
  }
}
