import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiAcceptedResponse, ApiHeader, ApiOperation } from '@nestjs/swagger';
import { AuthContext, CurrentAuth } from '@app/auth';
import { ApiErrors, CustomerApi, IDEMPOTENCY_KEY_HEADER } from '../common/openapi';
import { OPTIONS_BODY_LIMIT } from '../common/json-body';
import { JobAcceptedDto } from '../jobs/dto/job.dto';
import { CrawlRequestDto } from './dto/crawl-request.dto';
import { CrawlService } from './crawl.service';

@Controller('v1/crawl')
@CustomerApi('crawl')
export class CrawlController {
  constructor(private readonly crawls: CrawlService) {}

  /** Spec "POST /v1/crawl": accepted at once; results by polling GET /v1/jobs/{id} or by webhook. */
  @Post()
  @RouteConfig({ bodyLimit: OPTIONS_BODY_LIMIT })
  @HttpCode(202)
  @ApiOperation({
    summary: 'Queues a crawl of a site',
    description:
      'Reserves `limit` pages of the monthly quota and gives back what the crawl does not use. Results by polling GET /v1/jobs/{id} or by webhook.',
  })
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiAcceptedResponse({ type: JobAcceptedDto })
  @ApiErrors(400, 402, 409, 413)
  async crawl(
    @CurrentAuth() auth: AuthContext,
    @Body() body: CrawlRequestDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<JobAcceptedDto> {
    return this.crawls.accept(auth, body, idempotencyKey);
  }
}
