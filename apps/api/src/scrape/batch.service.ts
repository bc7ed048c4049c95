import { Injectable } from '@nestjs/common';
import { FieldProblem, InvalidRequestError } from '@app/common';
import { ApiEnv, actionLimits } from '@app/config';
import type { AuthContext } from '@app/auth';
import type { JobAccepted } from '@app/jobs';
import { JobProducer } from '@app/queues';
import { JobsService } from '../jobs/jobs.service';
import { SessionsService } from '../sessions/sessions.service';
import { checkActionLimits } from './dto/action.dto';
import { toScrapeOptions } from './dto/scrape-options.dto';
import { BatchRequestDto } from './dto/batch-request.dto';
import { UrlChecker } from './url-checker';

const MAX_REPORTED_PROBLEMS = 20;

/**
 * POST /v1/scrape/batch/async. Acceptance is O(1) in database round trips: the URL list is stored
 * compressed in a few chunk rows (libs/jobs), and the worker expands it into pages: a batch of
 * 100,000 URLs is accepted in a few statements, not 100,000 inserts.
 */
@Injectable()
export class BatchService {
  constructor(
    private readonly urls: UrlChecker,
    private readonly jobs: JobsService,
    private readonly producer: JobProducer,
    private readonly env: ApiEnv,
    private readonly sessions: SessionsService,
  ) {}

  async accept(auth: AuthContext, dto: BatchRequestDto, idempotencyKey?: string): Promise<JobAccepted> {
    checkActionLimits(dto.actions, actionLimits(this.env));
    this.urls.proxy(dto.proxy);
    const urls = this.checkUrls(dto.urls);
    const webhookUrl = dto.webhook_url === undefined ? null : await this.urls.webhook(dto.webhook_url);
    const { jobId, created } = await this.jobs.accept(
      auth,
      {
        type: 'batch',
        url: null,
        options: toScrapeOptions(dto),
        webhookUrl,
        pages: urls,
      },
      { key: idempotencyKey, body: dto, beforeCreate: () => this.sessions.open(auth, dto.session_id) },
    );
    if (created) await this.producer.add('expand', { jobId });
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
