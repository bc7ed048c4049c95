import { Injectable } from '@nestjs/common';
import { TimeoutError, UnavailableError } from '@app/common';
import { AuthContext, QuotaService } from '@app/auth';
import { SealedHeaders } from '@app/jobs';
import { JobProducer } from '@app/queues';
import { MAP_DEFAULTS, MAP_TIME_MS, type MapResult } from '@app/queue-contracts';
import { UrlChecker } from '../scrape/url-checker';
import { MapRequestDto } from './dto/map.dto';

/** The API's wait beyond the worker's own time cap on a map (a queue wait, a lost worker). */
const SYNC_GRACE_MS = 15_000;

/** POST /v1/map: one page of quota, the listing done by a worker (the API fetches nothing). */
@Injectable()
export class MapService {
  constructor(
    private readonly urls: UrlChecker,
    private readonly producer: JobProducer,
    private readonly quota: QuotaService,
    private readonly sealed: SealedHeaders,
  ) {}

  async map(auth: AuthContext, dto: MapRequestDto): Promise<MapResult> {
    // Vetted before the quota is touched: a refused URL is a 400, and costs nothing.
    this.urls.proxy(dto.proxy);
    const url = await this.urls.target(dto.url);
    const now = new Date();
    await this.quota.reserve(auth, 1, now);
    try {
      return await this.producer.addAndWait(
        'map',
        {
          accountId: auth.accountId,
          environment: auth.environment,
          url,
          settings: {
            ...(dto.search === undefined ? {} : { search: dto.search }),
            limit: dto.limit ?? MAP_DEFAULTS.limit,
            allow_subdomains: dto.allow_subdomains ?? MAP_DEFAULTS.allow_subdomains,
            ignore_sitemap: dto.ignore_sitemap ?? MAP_DEFAULTS.ignore_sitemap,
            // A caller's own proxy is queued sealed, as a scrape's is: Redis keeps the job a minute.
            ...(dto.proxy === undefined ? {} : this.sealed.seal({ proxy: dto.proxy }, auth)),
          },
        },
        MAP_TIME_MS + SYNC_GRACE_MS,
      );
    } catch (err) {
      // No listing came back, so none is charged.
      await this.quota.release(auth.accountId, auth.environment, 1, now);
      if (err instanceof TimeoutError) throw err;
      throw new UnavailableError(`The site could not be mapped; try again (${(err as Error).message})`);
    }
  }
}
