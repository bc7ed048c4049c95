import { Injectable } from '@nestjs/common';
import { ApiEnv, actionLimits } from '@app/config';
import type { AuthContext } from '@app/auth';
import type { JobAccepted } from '@app/jobs';
import { JobProducer } from '@app/queues';
import { JobsService } from '../jobs/jobs.service';
import { checkActionLimits } from '../scrape/dto/action.dto';
import { UrlChecker } from '../scrape/url-checker';
import { SessionsService } from '../sessions/sessions.service';
import { CrawlRequestDto, toCrawlOptions } from './dto/crawl-request.dto';

/**
 * POST /v1/crawl. The job starts with one page, the start URL (idx 0, depth 0), and reserves its
 * `limit` of the month's quota; the worker grows it and gives back what it did not fetch.
 */
@Injectable()
export class CrawlService {
  constructor(
    private readonly urls: UrlChecker,
    private readonly jobs: JobsService,
    private readonly producer: JobProducer,
    private readonly env: ApiEnv,
    private readonly sessions: SessionsService,
  ) {}

  async accept(auth: AuthContext, dto: CrawlRequestDto, idempotencyKey?: string): Promise<JobAccepted> {
    checkActionLimits(dto.actions, actionLimits(this.env));
    this.urls.proxy(dto.proxy);
    const url = await this.urls.target(dto.url);
    const webhookUrl = dto.webhook_url === undefined ? null : await this.urls.webhook(dto.webhook_url);
    const options = toCrawlOptions(dto);
    const { jobId, created } = await this.jobs.accept(
      auth,
      {
        type: 'crawl',
        url,
        options,
        webhookUrl,
        pages: [url],
        reserve: options.limit,
      },
      { key: idempotencyKey, body: dto, beforeCreate: () => this.sessions.open(auth, options.session_id) },
    );
    if (created) await this.producer.add('crawl-page', { jobId, idx: 0 });
    return { status: 'queued', job_id: jobId };
  }
}
