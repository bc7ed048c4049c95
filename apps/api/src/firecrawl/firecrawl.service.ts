import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/common';
import type { AuthContext } from '@app/auth';
import { JobView, TERMINAL_JOB_STATUSES } from '@app/jobs';
import { decodeCursor, encodeCursor } from '@app/persistence';
import type { PageResult } from '@app/queue-contracts';
import { createValidationPipe } from '../common/validation';
import { CrawlService } from '../crawl/crawl.service';
import { CrawlRequestDto } from '../crawl/dto/crawl-request.dto';
import { JobsService } from '../jobs/jobs.service';
import { MapRequestDto } from '../map/dto/map.dto';
import { MapService } from '../map/map.service';
import { BatchRequestPipe } from '../scrape/batch-request.pipe';
import { BatchService } from '../scrape/batch.service';
import { ScrapeRequestDto } from '../scrape/dto/scrape-request.dto';
import { ScrapeService } from '../scrape/scrape.service';
import { Body, toBatchBody, toCrawlBody, toMapBody, toSingleScrapeBody } from './firecrawl-request';
import {
  FirecrawlVersion,
  failedScrapeStatus,
  theirStatus,
  toDocument,
  toErrors,
  toJobStatus,
  toMapLinks,
  wasFetched,
} from './firecrawl-response';

/** Pages of results a status read skips at most while they hold only pages that were never fetched. */
const MAX_SKIPPING_READS = 10;
/** Failed pages an errors answer lists at most. */
const MAX_ERRORS = 1000;

export interface FirecrawlAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The /firecrawl endpoints: their request mapped onto ours, validated by our DTOs, then our own
 * services, so limits, quotas, the address policy and validation are the /v1 code path; their
 * answers shaped from ours. `base` is the absolute URL of /firecrawl/{version} for this request.
 */
@Injectable()
export class FirecrawlService {
  private readonly validation = createValidationPipe();
  private readonly batchPipe = new BatchRequestPipe();

  constructor(
    private readonly scrapes: ScrapeService,
    private readonly batches: BatchService,
    private readonly crawls: CrawlService,
    private readonly maps: MapService,
    private readonly jobs: JobsService,
  ) {}

  /** Answers 200 with the document, or their error (a status and message) when no page came back. */
  async scrape(auth: AuthContext, body: unknown): Promise<FirecrawlAnswer> {
    const dto = await this.validate(toSingleScrapeBody(body), ScrapeRequestDto);
    const page = await this.scrapes.scrape(auth, dto);
    if (page.error && !wasFetched(page)) {
      return {
        status: failedScrapeStatus(page.error.code),
        body: { success: false, error: page.error.message, code: page.error.code },
      };
    }
    return { status: 200, body: { success: true, data: toDocument(page) } };
  }

  async batch(auth: AuthContext, body: unknown, idempotencyKey: string | undefined, base: string) {
    const dto = await this.batchPipe.transform(toBatchBody(body));
    const { job_id } = await this.batches.accept(auth, dto, idempotencyKey);
    return { success: true, id: job_id, url: `${base}/batch/scrape/${job_id}` };
  }

  async crawl(auth: AuthContext, body: unknown, idempotencyKey: string | undefined, base: string) {
    const dto = await this.validate(toCrawlBody(body), CrawlRequestDto);
    const { job_id } = await this.crawls.accept(auth, dto, idempotencyKey);
    return { success: true, id: job_id, url: `${base}/crawl/${job_id}` };
  }

  async map(auth: AuthContext, version: FirecrawlVersion, body: unknown) {
    const dto = await this.validate(toMapBody(body), MapRequestDto);
    const { links } = await this.maps.map(auth, dto);
    return toMapLinks(version, links);
  }

  /**
   * A crawl's or batch's status with one page of its fetched pages from index `skip`. Pages a read
   * holds only unfetched ones of are passed over, so a page of `data` is empty only at the end or
   * while the job runs. While it runs, `next` is given only past pages that were read, so a client
   * following `next` reaches the end of what is finished instead of waiting on a running page.
   */
  async status(auth: AuthContext, id: string, skip: number, limit: number, self: string) {
    let from = skip;
    let view: JobView;
    let result: { data: PageResult[]; next: string | null };
    for (let reads = 1; ; reads++) {
      view = await this.jobs.get(auth, id, from ? encodeCursor('idx', from) : undefined, limit);
      result = theirJob(view);
      const onlyUnfetched = result.data.length > 0 && !result.data.some(wasFetched);
      if (!onlyUnfetched || !result.next || reads === MAX_SKIPPING_READS) break;
      from = decodeCursor(result.next, 'idx');
    }
    const more = result.next && (TERMINAL_JOB_STATUSES.includes(view.status) || result.data.length > 0);
    const next = more ? `${self}?skip=${decodeCursor(result.next!, 'idx')}&limit=${limit}` : undefined;
    return toJobStatus({ view, pages: result.data, next });
  }

  async cancel(auth: AuthContext, id: string) {
    theirJob(await this.jobs.get(auth, id, undefined, 1));
    const view = await this.jobs.cancel(auth, id);
    return { success: true, status: theirStatus(view.status) };
  }

  async errors(auth: AuthContext, id: string) {
    const { view, pages } = await this.jobs.failures(auth, id, MAX_ERRORS);
    theirJob(view);
    return toErrors(id, pages);
  }

  private async validate<T>(body: Body, metatype: new () => T): Promise<T> {
    return (await this.validation.transform(body, { type: 'body', metatype })) as T;
  }
}

/** A batch's or crawl's list of results; a single scrape's job is not one of theirs. */
function theirJob(view: JobView): { data: PageResult[]; next: string | null } {
  if (view.type === 'scrape') throw new NotFoundError('Job not found');
  return view.result as { data: PageResult[]; next: string | null };
}
