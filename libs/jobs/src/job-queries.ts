import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, LessThan, Repository } from 'typeorm';
import { Environment, decodeCursor, encodeCursor } from '@app/persistence';
import { Job, JobStatus, JobType, TERMINAL_JOB_STATUSES } from './entities';

/** Whose jobs a read may see: an unset field means every account or environment (an admin's filter). */
export interface JobOwner {
  accountId?: string;
  environment?: Environment;
}

const ownerWhere = (s: JobOwner) => ({
  ...(s.accountId ? { accountId: s.accountId } : {}),
  ...(s.environment ? { environment: s.environment } : {}),
});

/** Job rows as the API and the webhook side read them. */
@Injectable()
export class JobQueries {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(Job) private readonly jobs: Repository<Job>,
  ) {}

  find(id: string): Promise<Job | null> {
    return this.jobs.findOneBy({ id });
  }

  /** The job if `owner` may see it; null for an id that is not a job id, or another owner's job. */
  findOwned(owner: JobOwner, id: string): Promise<Job | null> {
    if (!/^job_[0-9a-z]{26}$/.test(id)) return Promise.resolve(null);
    return this.jobs.findOneBy({ id, ...ownerWhere(owner) });
  }

  /** Newest first, `limit` at a time; `cursor` is the `next` of the page before. */
  async list(
    owner: JobOwner,
    filter: { status?: JobStatus; type?: JobType; cursor?: string; limit: number },
  ): Promise<{ jobs: Job[]; next: string | null }> {
    const before = filter.cursor ? decodeCursor(filter.cursor, 'job') : undefined;
    const rows = await this.jobs.find({
      where: {
        ...ownerWhere(owner),
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.type ? { type: filter.type } : {}),
        ...(before ? { id: LessThan(before) } : {}),
      },
      order: { id: 'DESC' },
      take: filter.limit + 1,
    });
    const jobs = rows.slice(0, filter.limit);
    return { jobs, next: rows.length > filter.limit ? encodeCursor('job', jobs[jobs.length - 1].id) : null };
  }

  /**
   * Ended, unexpired jobs with a webhook_url and no delivery that ended before `before`: a worker
   * died between ending the job and creating its delivery.
   */
  async endedWithoutDelivery(before: Date, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }[]>(
      `SELECT j.id FROM jobs j LEFT JOIN webhook_deliveries d ON d.job_id = j.id
        WHERE j.status IN (?) AND j.webhook_url IS NOT NULL AND d.id IS NULL
          AND j.expires_at > NOW(3) AND COALESCE(j.finished_at, j.created_at) < ?
        ORDER BY j.id LIMIT ?`,
      [TERMINAL_JOB_STATUSES, before, limit],
    );
    return rows.map((r) => r.id);
  }
}
