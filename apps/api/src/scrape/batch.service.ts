import { Injectable } from '@nestjs/common';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { FieldProblem, InvalidRequestError } from '@app/common';
import type { AuthContext } from '@app/auth';
import { JobAccepted, JobUrlChunk } from '@app/persistence';
import { JobProducer } from '@app/queues';
import { JobsService } from '../jobs/jobs.service';
import { toScrapeOptions } from './dto/scrape-options.dto';
import { BatchRequestDto } from './dto/batch-request.dto';
import { UrlChecker } from './url-checker';

const gzipAsync = promisify(gzip);

/** URLs per chunk row: about 0.5 to 2 MB compressed for ordinary URLs. */
const URLS_PER_CHUNK = 100_000;
/**
 * A chunk compressing to more is split: the driver sends a BLOB as hex in the INSERT's text, so
 * the statement is about twice this, under MySQL's default 16 MB max_allowed_packet.
 */
const MAX_CHUNK_BYTES = 6 * 1024 * 1024;
const MAX_REPORTED_PROBLEMS = 20;

/**
 * POST /v1/scrape/batch/async. Acceptance is O(1) in database round trips: the URL list is stored
 * compressed in a few chunk rows, and the worker expands it into pages (DESIGN.md "Batch acceptance").
 */
@Injectable()
export class BatchService {
  constructor(
    private readonly urls: UrlChecker,
    private readonly jobs: JobsService,
    private readonly producer: JobProducer,
  ) {}

  async accept(auth: AuthContext, dto: BatchRequestDto, idempotencyKey?: string): Promise<JobAccepted> {
    const urls = this.checkUrls(dto.urls);
    const webhookUrl = dto.webhook_url === undefined ? null : await this.urls.webhook(dto.webhook_url);
    const chunks = await compressChunks(urls);
    const { jobId, created } = await this.jobs.accept(
      auth,
      {
        type: 'batch',
        url: null,
        options: toScrapeOptions(dto),
        webhookUrl,
        total: urls.length,
        writePages: async (em, id) => {
          // One statement a row: together they would pass the packet limit.
          for (const chunk of chunks) await em.getRepository(JobUrlChunk).insert({ ...chunk, jobId: id });
        },
      },
      { key: idempotencyKey, body: dto },
    );
    if (created) await this.producer.add('expand', { jobId }, { jobId: `${jobId}:expand` });
    return { status: 'queued', job_id: jobId };
  }

  /** Normalises every URL; a bad one gives 400 listing the first bad indices and why. */
  private checkUrls(raw: unknown[]): string[] {
    const out = new Array<string>(raw.length);
    const problems: FieldProblem[] = [];
    const target = this.urls.batchTargets();
    for (let i = 0; i < raw.length; i++) {
      try {
        out[i] = target(raw[i], `urls[${i}]`);
      } catch (err) {
        if (!(err instanceof InvalidRequestError)) throw err;
        problems.push(...err.errors);
        if (problems.length >= MAX_REPORTED_PROBLEMS) break;
      }
    }
    if (problems.length) {
      const first = problems[0];
      throw new InvalidRequestError(
        `${first.field}: ${first.message} (the first ${problems.length} invalid URLs are listed in errors)`,
        problems,
      );
    }
    return out;
  }
}

async function compressChunks(urls: string[]): Promise<Omit<JobUrlChunk, 'jobId'>[]> {
  const ranges: Omit<JobUrlChunk, 'jobId' | 'chunkNo'>[] = [];
  for (let first = 0; first < urls.length; first += URLS_PER_CHUNK) {
    ranges.push(...(await compressRange(urls, first, Math.min(URLS_PER_CHUNK, urls.length - first))));
  }
  return ranges.map((range, chunkNo) => ({ ...range, chunkNo }));
}

/** The URLs [first, first + count) compressed, in halves while they compress to too much. */
async function compressRange(
  urls: string[],
  first: number,
  count: number,
): Promise<Omit<JobUrlChunk, 'jobId' | 'chunkNo'>[]> {
  // Level 1: the list compresses ~6x at a fraction of the CPU of the default level.
  const data = await gzipAsync(JSON.stringify(urls.slice(first, first + count)), { level: 1 });
  if (data.length <= MAX_CHUNK_BYTES || count === 1) return [{ firstIndex: first, urlCount: count, data }];
  const half = Math.ceil(count / 2);
  return [
    ...(await compressRange(urls, first, half)),
    ...(await compressRange(urls, first + half, count - half)),
  ];
}
