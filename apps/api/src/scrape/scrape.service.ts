import { Injectable } from '@nestjs/common';
import { TimeoutError, UnavailableError } from '@app/common';
import { AuthContext, QuotaService, UsageRecorder } from '@app/auth';
import { ApiEnv, actionLimits } from '@app/config';
import { JobProducer, StalledOutError } from '@app/queues';
import { type PageResult, errorResult, triedOutError } from '@app/queue-contracts';
import { JobsService } from '../jobs/jobs.service';
import { SessionsService } from '../sessions/sessions.service';
import { SealedHeaders, type JobAccepted } from '@app/jobs';
import { ResultCache } from '@app/result-cache';
import { checkActionLimits } from './dto/action.dto';
import { toScrapeOptions } from './dto/scrape-options.dto';
import { AsyncScrapeRequestDto, ScrapeRequestDto } from './dto/scrape-request.dto';
import { UrlChecker } from './url-checker';

/**
 * Time a worker gets beyond the page's own timeout and its content work (CONTENT_TIMEOUT_MS, which
 * may follow a render that used its whole timeout) before a sync scrape answers 504. It counts
 * again from each time the page's worker was lost (the job then goes to another worker).
 */
const SYNC_GRACE_MS = 15_000;

@Injectable()
export class ScrapeService {
  constructor(
    private readonly urls: UrlChecker,
    private readonly jobs: JobsService,
    private readonly producer: JobProducer,
    private readonly quota: QuotaService,
    private readonly env: ApiEnv,
    private readonly headers: SealedHeaders,
    private readonly sessions: SessionsService,
    private readonly cache: ResultCache,
    private readonly usage: UsageRecorder,
  ) {}

  /**
   * POST /v1/scrape: waits for a worker; a failed page is still a 200 with `error`. A page in the
   * result cache within `max_age` is answered here, without the queue, and counted as a page.
   */
  async scrape(auth: AuthContext, dto: ScrapeRequestDto): Promise<PageResult> {
    checkActionLimits(dto.actions, actionLimits(this.env));
    this.urls.proxy(dto.proxy);
    const options = toScrapeOptions(dto);
    const now = new Date();
    // The target's DNS check (then the result cache's lookup) and the quota row's update are
    // independent round trips: run together. A refused URL is still a 400 (before a 402), and gives
    // back what was reserved meanwhile.
    const [checked, reserved] = await Promise.allSettled([
      this.urls.target(dto.url).then(async (url) => ({
        url,
        hit: await this.cache.get(auth, { index: 0, url }, options),
      })),
      this.quota.reserve(auth, 1, now),
    ]);
    if (checked.status === 'rejected') {
      if (reserved.status === 'fulfilled') await this.quota.release(auth.accountId, auth.environment, 1, now);
      throw checked.reason;
    }
    if (reserved.status === 'rejected') throw reserved.reason;
    const { url, hit } = checked.value;
    if (hit) {
      // The reservation stands, as for a rendered page; counted as one, with no render time.
      await this.usage.record(auth.accountId, auth.environment, { succeeded: true, renderMs: 0 });
      return hit;
    }
    try {
      await this.sessions.open(auth, options.session_id);
    } catch (err) {
      await this.quota.release(auth.accountId, auth.environment, 1, now);
      throw err;
    }
    try {
      // Sealed in the queue payload too: Redis keeps a finished sync job a minute.
      return await this.producer.addAndWait(
        'scrape-sync',
        {
          accountId: auth.accountId,
          environment: auth.environment,
          url,
          options: this.headers.seal(options, auth),
        },
        options.timeout + this.env.CONTENT_TIMEOUT_MS + SYNC_GRACE_MS,
      );
    } catch (err) {
      // No page came back, so none is charged.
      await this.quota.release(auth.accountId, auth.environment, 1, now);
      if (err instanceof TimeoutError) throw err;
      // The queue gave the page up after losing its workers more often than it allows (workers
      // answer RENDER_CRASH themselves at PAGE_MAX_ATTEMPTS, well before that): the page's result.
      if (err instanceof StalledOutError)
        return errorResult(url, 0, options, triedOutError(this.env.PAGE_MAX_ATTEMPTS));
      // The worker answered, but with a crash it could not recover from (page errors are results).
      throw new UnavailableError(`The page could not be rendered; try again (${(err as Error).message})`);
    }
  }

  /** POST /v1/scrape/async: one page as a durable job; result by polling or webhook. */
  async scrapeAsync(
    auth: AuthContext,
    dto: AsyncScrapeRequestDto,
    idempotencyKey?: string,
  ): Promise<JobAccepted> {
    checkActionLimits(dto.actions, actionLimits(this.env));
    this.urls.proxy(dto.proxy);
    const url = await this.urls.target(dto.url);
    const webhookUrl = dto.webhook_url === undefined ? null : await this.urls.webhook(dto.webhook_url);
    const { jobId, created } = await this.jobs.accept(
      auth,
      {
        type: 'scrape',
        url,
        options: toScrapeOptions(dto),
        webhookUrl,
        pages: [url],
      },
      { key: idempotencyKey, body: dto, beforeCreate: () => this.sessions.open(auth, dto.session_id) },
    );
    if (created) await this.producer.add('pages', { jobId, fromIdx: 0, toIdx: 1 });
    return { status: 'queued', job_id: jobId };
  }
}
