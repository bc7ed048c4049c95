import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager, In, LessThan, Repository } from 'typeorm';
import { ApiEnv } from '@app/config';
import { ConflictError, InvalidRequestError, NotFoundError, newId } from '@app/common';
import { AuthContext, QuotaService } from '@app/auth';
import {
  Job,
  JobResultsReader,
  JobStatus,
  JobType,
  JobView,
  TERMINAL_JOB_STATUSES,
  decodeCursor,
  encodeCursor,
} from '@app/persistence';
import { UNFETCHED_PAGE_CODES, type ScrapeOptions } from '@app/queue-contracts';
import { WebhookDeliveries } from '@app/webhooks';
import { OwnerScope, ownerFields, ownerWhere } from '../common/owner-scope';

const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
const MYSQL_DUPLICATE = 'ER_DUP_ENTRY';

export interface NewJob {
  type: JobType;
  url: string | null;
  options: ScrapeOptions | Record<string, unknown>;
  webhookUrl: string | null;
  /** Pages known at acceptance (a crawl starts with its start page and grows). */
  total: number;
  /** Pages reserved from the monthly quota; `total` unless the job can grow (a crawl: its limit). */
  reserve?: number;
  /** Writes the job's pages (or URL chunks) inside the creating transaction. */
  writePages: (em: EntityManager, jobId: string) => Promise<void>;
}

export interface Idempotency {
  key?: string;
  /** The request as received, so a reused key with another body can be told apart (409). */
  body: unknown;
}

export interface Accepted {
  jobId: string;
  /** False when an Idempotency-Key replay returned an earlier job. */
  created: boolean;
}

@Injectable()
export class JobsService {
  private readonly logger = new Logger(JobsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(Job) private readonly jobs: Repository<Job>,
    private readonly results: JobResultsReader,
    private readonly env: ApiEnv,
    private readonly quota: QuotaService,
    private readonly webhooks: WebhookDeliveries,
  ) {}

  /**
   * Stores a job and its pages in one transaction. With an Idempotency-Key the same key within
   * 24 h returns the first job and creates nothing; the same key with another body is a conflict.
   */
  async accept(auth: AuthContext, job: NewJob, idem: Idempotency): Promise<Accepted> {
    const requestHash = idem.key
      ? createHash('sha256').update(JSON.stringify(idem.body)).digest('hex')
      : null;
    if (idem.key) {
      if (idem.key.length > 255)
        throw InvalidRequestError.field('Idempotency-Key', 'must be at most 255 characters');
      const earlier = await this.findIdempotent(auth, idem.key, requestHash!);
      if (earlier) return { jobId: earlier, created: false };
    }
    const id = newId('job');
    const now = new Date();
    const reserve = job.reserve ?? job.total;
    // DESIGN.md "Quota": reserved at acceptance, atomically; given back if the job is not stored.
    await this.quota.reserve(auth, reserve, now);
    try {
      await this.db.transaction(async (em) => {
        const repo = em.getRepository(Job);
        const row = repo.create({
          id,
          accountId: auth.accountId,
          environment: auth.environment,
          type: job.type,
          status: 'queued',
          url: job.url,
          options: job.options,
          webhookUrl: job.webhookUrl,
          idempotencyKey: idem.key ?? null,
          requestHash,
          total: job.total,
          quotaReserved: reserve,
          createdAt: now,
          expiresAt: new Date(now.getTime() + this.env.RESULT_RETENTION_DAYS * 24 * 3600 * 1000),
        });
        await repo.insert(row);
        await job.writePages(em, id);
      });
    } catch (err) {
      await this.quota.release(auth.accountId, auth.environment, reserve, now);
      // Two requests with one key raced: the loser answers with the winner's job.
      if (idem.key && (err as { code?: string }).code === MYSQL_DUPLICATE) {
        const earlier = await this.findIdempotent(auth, idem.key, requestHash!);
        if (earlier) return { jobId: earlier, created: false };
      }
      throw err;
    }
    return { jobId: id, created: true };
  }

  private async findIdempotent(auth: AuthContext, key: string, requestHash: string): Promise<string | null> {
    const scope = { accountId: auth.accountId, environment: auth.environment, idempotencyKey: key };
    const earlier = await this.jobs.findOne({
      where: scope,
      select: { id: true, requestHash: true, createdAt: true },
    });
    if (!earlier) return null;
    if (Date.now() - earlier.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS) {
      // Past the window the key is free again; the old job keeps its results but loses the key.
      await this.jobs.update(
        { id: earlier.id, createdAt: LessThan(new Date(Date.now() - IDEMPOTENCY_WINDOW_MS)) },
        {
          idempotencyKey: null,
        },
      );
      return null;
    }
    if (earlier.requestHash !== requestHash) {
      throw new ConflictError('Idempotency-Key was already used with a different request body');
    }
    return earlier.id;
  }

  async get(
    scope: OwnerScope,
    id: string,
    cursor?: string,
    pageSize = 100,
    withOwner = false,
  ): Promise<JobView> {
    const job = await this.owned(scope, id);
    const view = await this.results.withResult(job, cursor, pageSize);
    return withOwner ? { ...view, ...ownerFields(job) } : view;
  }

  /** Newest first; `withOwner` adds account_id and environment to each item (admins list across accounts). */
  async list(
    scope: OwnerScope,
    filter: { status?: JobStatus; type?: JobType; cursor?: string; limit: number },
    withOwner = false,
  ): Promise<{ data: Omit<JobView, 'result'>[]; next: string | null }> {
    const before = filter.cursor ? decodeCursor(filter.cursor, 'job') : undefined;
    const rows = await this.jobs.find({
      where: {
        ...ownerWhere(scope),
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.type ? { type: filter.type } : {}),
        ...(before ? { id: LessThan(before) } : {}),
      },
      order: { id: 'DESC' },
      take: filter.limit + 1,
    });
    const page = rows.slice(0, filter.limit);
    const data = page.map((j) => {
      const { result: _result, ...rest } = this.results.view(j, null);
      return withOwner ? { ...rest, ...ownerFields(j) } : rest;
    });
    return { data, next: rows.length > filter.limit ? encodeCursor('job', page[page.length - 1].id) : null };
  }

  /**
   * Cancels a job that has not ended: no new page starts, pages already running finish, and the
   * reservation beyond the pages fetched or running goes back to the month's quota (for a crawl,
   * the rest of its limit too; URLs it reported without fetching never used any).
   */
  async cancel(scope: OwnerScope, id: string, withOwner = false): Promise<JobView> {
    const job = await this.owned(scope, id);
    if (!TERMINAL_JOB_STATUSES.includes(job.status)) {
      const res = await this.jobs.update(
        { id: job.id, status: In(['queued', 'running']) },
        { status: 'cancelled', finishedAt: new Date() },
      );
      if (res.affected === 1) {
        const [row] = await this.jobs.query<{ unstarted: string }[]>(
          `SELECT j.quota_reserved - j.completed - j.failed -
                  (SELECT COUNT(*) FROM job_pages p WHERE p.job_id = j.id AND p.status = 'running') +
                  (SELECT COUNT(*) FROM job_pages p
                    WHERE p.job_id = j.id AND p.status = 'failed' AND p.error_code IN (?)) AS unstarted
             FROM jobs j WHERE j.id = ?`,
          [UNFETCHED_PAGE_CODES, job.id],
        );
        await this.quota.release(
          job.accountId,
          job.environment,
          Math.max(0, Number(row.unstarted)),
          job.createdAt,
        );
        // A cancelled job ends here, so its webhook goes now; the worker's sweep covers a failure.
        if (job.webhookUrl) {
          await this.webhooks
            .jobEnded(job.id)
            .catch((err: unknown) =>
              this.logger.warn({ err, jobId: job.id }, 'webhook delivery left to the sweep'),
            );
        }
      }
    }
    return this.get(scope, id, undefined, 100, withOwner);
  }

  private async owned(scope: OwnerScope, id: string): Promise<Job> {
    const job = /^job_[0-9a-z]{26}$/.test(id)
      ? await this.jobs.findOneBy({ id, ...ownerWhere(scope) })
      : null;
    if (!job) throw new NotFoundError('Job not found');
    return job;
  }
}
