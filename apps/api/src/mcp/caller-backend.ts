import { Injectable, Logger, type Type } from '@nestjs/common';
import { logInternal, toErrorResponse } from '@app/common';
import type { AuthContext } from '@app/auth';
import { BackendRefusal, type RequestBody, type ScraperBackend } from '@app/mcp';
import { createValidationPipe } from '../common/validation';
import { CrawlService } from '../crawl/crawl.service';
import { CrawlRequestDto } from '../crawl/dto/crawl-request.dto';
import { JobResultQueryDto } from '../jobs/dto/job-query.dto';
import { JobsService } from '../jobs/jobs.service';
import { MapRequestDto } from '../map/dto/map.dto';
import { MapService } from '../map/map.service';
import { BatchRequestPipe } from '../scrape/batch-request.pipe';
import { BatchService } from '../scrape/batch.service';
import { ScrapeRequestDto } from '../scrape/dto/scrape-request.dto';
import { ScrapeService } from '../scrape/scrape.service';

/**
 * The MCP tools' backend inside the API: the REST endpoints' own services, as the calling key, each
 * body validated by the DTO and pipe its REST route uses. So a tool call passes the same checks
 * (address policy, action limits, quota, sessions) as the REST request, and what they refuse
 * comes back as a BackendRefusal carrying the REST error's code, status and detail.
 */
@Injectable()
export class CallerBackends {
  private readonly logger = new Logger('McpBackend');
  private readonly validation = createValidationPipe();
  private readonly batchBodies = new BatchRequestPipe();

  constructor(
    private readonly scrapes: ScrapeService,
    private readonly batches: BatchService,
    private readonly crawls: CrawlService,
    private readonly maps: MapService,
    private readonly jobs: JobsService,
  ) {}

  forCaller(auth: AuthContext): ScraperBackend {
    return {
      scrape: (body) =>
        this.refusing(async () => this.scrapes.scrape(auth, await this.dto(ScrapeRequestDto, body))),
      batchScrape: (body) =>
        this.refusing(async () => this.batches.accept(auth, await this.batchBodies.transform(body))),
      crawl: (body) =>
        this.refusing(async () => this.crawls.accept(auth, await this.dto(CrawlRequestDto, body))),
      map: (body) => this.refusing(async () => this.maps.map(auth, await this.dto(MapRequestDto, body))),
      jobStatus: (id, page = {}) =>
        this.refusing(async () => {
          const query = await this.dto(JobResultQueryDto, page, 'query');
          return this.jobs.get(auth, id, query.cursor, query.page_size ?? 100);
        }),
      cancel: (id) => this.refusing(() => this.jobs.cancel(auth, id)),
    };
  }

  private async dto<T>(metatype: Type<T>, value: RequestBody, type: 'body' | 'query' = 'body'): Promise<T> {
    return (await this.validation.transform(value, { type, metatype })) as T;
  }

  /** What the REST route would answer as an error, as a refusal (logged as the error filter logs it). */
  private async refusing<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      const response = toErrorResponse(err);
      logInternal(this.logger, response);
      const { detail, code, errors: _listed, ...extra } = response.body;
      // The first bad field is in `detail` already; the rest (a quota's limit, an error id) is appended.
      const more = Object.keys(extra).length ? ` ${JSON.stringify(extra)}` : '';
      throw new BackendRefusal(code, `${detail}${more}`, response.status);
    }
  }
}
