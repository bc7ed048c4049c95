import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { createHash, createHmac } from 'node:crypto';
import { DataSource, LessThan, Repository } from 'typeorm';
import { SharedEnv } from '@app/config';
import { ConflictError, InvalidRequestError, newId } from '@app/common';
import { type AuthContext, QuotaService } from '@app/auth';
import type { ScrapeOptions } from '@app/queue-contracts';
import { Job, JobPage, JobType, JobUrlChunk } from './entities';
import { SealedHeaders } from './sealed-headers';
import { compressChunks } from './url-chunks';

const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;
const MYSQL_DUPLICATE = 'ER_DUP_ENTRY';

export interface NewJob {
  type: JobType;
  /** The page of a scrape, the start page of a crawl; null for a batch. */
  url: string | null;
  /** As validated; the caller's `headers` are stored sealed (SealedHeaders). */
  options: ScrapeOptions | Record<string, unknown>;
  webhookUrl: string | null;
  /**
   * The pages known at acceptance: a batch's URLs (stored compressed, expanded by the worker), or
   * a scrape's or crawl's one page (a crawl starts with its start page and grows).
   */
  pages: string[];
  /** Pages reserved from the monthly quota; as many as `pages` unless the job can grow (a crawl: its limit). */
  reserve?: number;
}

export interface Idempotency {
  key?: string;
  /** The request as received, so a reused key with another body can be told apart (409). */
  body: unknown;
  /**
   * What a new job needs first (opening its session): run once a replay is ruled out, so a replay
   * answers as the first request did and changes nothing.
   */
  beforeCreate?: () => Promise<void>;
}

export interface Accepted {
  jobId: string;
  /** False when an Idempotency-Key replay returned an earlier job. */
  created: boolean;
}

/** Creates jobs: quota reservation, idempotency and the rows, in one place for every job type. */
@Injectable()
export class JobIntake {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(Job) private readonly jobs: Repository<Job>,
    private readonly env: SharedEnv,
    private readonly quota: QuotaService,
    private readonly headers: SealedHeaders,
  ) {}

  /**
   * Stores a job and its pages in one transaction. With an Idempotency-Key the same key within
   * 24 h returns the first job and creates nothing; the same key with another body is a conflict.
   */
  async accept(
    auth: Pick<AuthContext, 'accountId' | 'environment' | 'plan'>,
    job: NewJob,
    idem: Idempotency,
  ): Promise<Accepted> {
    const chunks = job.type === 'batch' ? await compressChunks(job.pages) : null;
    const requestHash = idem.key ? this.requestHash(idem.body) : null;
    if (idem.key) {
      if (idem.key.length > 255)
        throw InvalidRequestError.field('Idempotency-Key', 'must be at most 255 characters');
      const earlier = await this.findIdempotent(auth, idem.key, requestHash!);
      if (earlier) return { jobId: earlier, created: false };
    }
    await idem.beforeCreate?.();
    const id = newId('job');
    const now = new Date();
    const reserve = job.reserve ?? job.pages.length;
    // Reserved at acceptance, atomically, so concurrent requests never overspend; given back if
    // the job is not stored.
    await this.quota.reserve(auth, reserve, now);
    try {
      await this.db.transaction(async (em) => {
        await em.getRepository(Job).insert({
          id,
          accountId: auth.accountId,
          environment: auth.environment,
          type: job.type,
          status: 'queued',
          url: job.url,
          options: this.headers.seal(job.options, auth),
          webhookUrl: job.webhookUrl,
          idempotencyKey: idem.key ?? null,
          requestHash,
          total: job.pages.length,
          quotaReserved: reserve,
          createdAt: now,
          expiresAt: new Date(now.getTime() + this.env.RESULT_RETENTION_DAYS * DAY_MS),
        });
        if (chunks) {
          // One statement a row: together they would pass the packet limit.
          for (const chunk of chunks) await em.getRepository(JobUrlChunk).insert({ ...chunk, jobId: id });
        } else {
          await em.getRepository(JobPage).insert(job.pages.map((url, idx) => ({ jobId: id, idx, url })));
        }
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

  /**
   * The body's SHA-256, with the caller's headers and proxy in it as HMACs under KEY_HASH_SECRET:
   * a plain hash of a body would let anyone who reads the row test guesses at a secret's value.
   */
  private requestHash(body: unknown): string {
    const named = (body ?? {}) as Record<string, unknown>;
    const secrets = ['headers', 'proxy'].filter((name) => named[name] !== undefined);
    const hmac = (value: unknown) =>
      createHmac('sha256', this.env.KEY_HASH_SECRET).update(JSON.stringify(value)).digest('hex');
    const keyed =
      secrets.length === 0
        ? body
        : { ...named, ...Object.fromEntries(secrets.map((n) => [n, hmac(named[n])])) };
    return createHash('sha256').update(JSON.stringify(keyed)).digest('hex');
  }

  private async findIdempotent(
    auth: Pick<AuthContext, 'accountId' | 'environment'>,
    key: string,
    requestHash: string,
  ): Promise<string | null> {
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
        { idempotencyKey: null },
      );
      return null;
    }
    if (earlier.requestHash !== requestHash) {
      throw new ConflictError('Idempotency-Key was already used with a different request body');
    }
    return earlier.id;
  }
}
