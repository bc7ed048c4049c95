import { DataSource } from 'typeorm';

export interface PageCounts {
  rows: number;
  /** Distinct (job, idx) pairs: fewer than `rows` would mean a page stored twice. */
  distinct: number;
  pending: number;
  running: number;
  succeeded: number;
  failed: number;
}

/**
 * Counts over the job tables for tests and benchmarks: what a run left in MySQL, read straight
 * from the rows rather than through the API. Not a provider: built on a DataSource where needed.
 */
export class JobStats {
  constructor(private readonly db: DataSource) {}

  async pages(jobIds: string[]): Promise<PageCounts> {
    const [row] = await this.db.query<Record<keyof PageCounts, string | null>[]>(
      `SELECT COUNT(*) AS \`rows\`, COUNT(DISTINCT job_id, idx) AS \`distinct\`,
              SUM(status = 'pending') AS pending, SUM(status = 'running') AS running,
              SUM(status = 'succeeded') AS succeeded, SUM(status = 'failed') AS failed
         FROM job_pages WHERE job_id IN (?)`,
      [jobIds],
    );
    const n = (k: keyof PageCounts) => Number(row[k] ?? 0);
    return {
      rows: n('rows'),
      distinct: n('distinct'),
      pending: n('pending'),
      running: n('running'),
      succeeded: n('succeeded'),
      failed: n('failed'),
    };
  }

  /** URL chunks not yet expanded into pages. */
  async chunks(jobIds: string[]): Promise<number> {
    const [{ n }] = await this.db.query<{ n: string }[]>(
      'SELECT COUNT(*) AS n FROM job_url_chunks WHERE job_id IN (?)',
      [jobIds],
    );
    return Number(n);
  }

  /** When the job was created, started and ended, and when each of its pages finished (in order). */
  async timeline(
    jobId: string,
  ): Promise<{ created: Date; started: Date | null; finished: Date | null; pages: Date[] }> {
    const [job] = await this.db.query<{ c: Date; s: Date | null; f: Date | null }[]>(
      'SELECT created_at AS c, started_at AS s, finished_at AS f FROM jobs WHERE id = ?',
      [jobId],
    );
    const rows = await this.db.query<{ f: Date }[]>(
      'SELECT finished_at AS f FROM job_pages WHERE job_id = ? ORDER BY finished_at',
      [jobId],
    );
    return { created: job.c, started: job.s, finished: job.f, pages: rows.map((r) => r.f) };
  }

  /** The job's pages not yet finished (pending or running), in index order, with their tries. */
  openPages(jobId: string): Promise<{ idx: number; status: 'pending' | 'running'; attempts: number }[]> {
    return this.db.query(
      `SELECT idx, status, attempts FROM job_pages
        WHERE job_id = ? AND status IN ('pending', 'running') ORDER BY idx`,
      [jobId],
    );
  }
}
