import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { AuthContext, CurrentAuth } from '@app/auth';
import type { JobAccepted } from '@app/persistence';
import { CrawlRequestDto } from './dto/crawl-request.dto';
import { CrawlService } from './crawl.service';

@Controller('v1/crawl')
export class CrawlController {
  constructor(private readonly crawls: CrawlService) {}

  /** Spec "POST /v1/crawl": accepted at once; results by polling GET /v1/jobs/{id} or by webhook. */
  @Post()
  @HttpCode(202)
  async crawl(
    @CurrentAuth() auth: AuthContext,
    @Body() body: CrawlRequestDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<JobAccepted> {
    return this.crawls.accept(auth, body, idempotencyKey);
  }
}
