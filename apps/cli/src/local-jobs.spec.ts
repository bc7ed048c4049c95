import { BackendRefusal } from '@app/mcp';
import {
  NO_METADATA,
  RENDERED_NOW,
  SCRAPE_DEFAULTS,
  errorResult,
  type PageResult,
} from '@app/queue-contracts';
import { LocalJobs, type JobRun } from './local-jobs';

const page = (index: number, failed = false): PageResult => {
  const url = `http://h.test/${index}`;
  if (failed) return errorResult(url, index, SCRAPE_DEFAULTS, { code: 'TIMEOUT', message: 'slow' });
  return {
    index,
    url,
    final_url: url,
    status_code: 200,
    markdown: `page ${index}`,
    metadata: { ...NO_METADATA, engine: 'http', ...RENDERED_NOW },
    timings: { total_ms: 1, render_ms: 1 },
  };
};

/** A job whose pages the test hands in one by one. */
function heldJob(jobs: LocalJobs) {
  let run!: JobRun;
  let end!: () => void;
  const { job_id } = jobs.start('crawl', (r) => {
    run = r;
    return new Promise<void>((resolve) => (end = resolve));
  });
  return { id: job_id, run, end: () => end() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('LocalJobs', () => {
  it('pages results by cursor while running, and ends with next: null once done', async () => {
    const jobs = new LocalJobs();
    const job = heldJob(jobs);
    job.run.addTotal(3);
    job.run.finish(page(0));
    job.run.finish(page(1, true));
    const first = jobs.status(job.id, { page_size: 1 });
    expect(first).toMatchObject({ status: 'running', total: 3, completed: 1, failed: 1 });
    expect(first.result).toEqual({ data: [page(0)], next: '1' });
    const second = jobs.status(job.id, { cursor: '1' });
    // Running: more may come, so the end is not told yet.
    expect(second.result).toEqual({ data: [page(1, true)], next: '2' });
    job.run.finish(page(2));
    job.end();
    await settle();
    const last = jobs.status(job.id, { cursor: '2' });
    expect(last).toMatchObject({ status: 'completed', completed: 2, failed: 1 });
    expect(last.result).toEqual({ data: [page(2)], next: null });
  });

  it('cancels a running job: its signal is aborted and it stays cancelled', async () => {
    const jobs = new LocalJobs();
    const job = heldJob(jobs);
    expect(jobs.cancel(job.id).status).toBe('cancelled');
    expect(job.run.signal.aborted).toBe(true);
    job.end();
    await settle();
    expect(jobs.status(job.id).status).toBe('cancelled');
  });

  it('fails a job all of whose pages failed, and refuses unknown ids and bad cursors', async () => {
    const jobs = new LocalJobs();
    const job = heldJob(jobs);
    job.run.finish(page(0, true));
    job.end();
    await settle();
    expect(jobs.status(job.id).status).toBe('failed');
    expect(() => jobs.status('job_nope')).toThrow(BackendRefusal);
    expect(() => jobs.status(job.id, { cursor: 'x' })).toThrow(BackendRefusal);
  });
});
