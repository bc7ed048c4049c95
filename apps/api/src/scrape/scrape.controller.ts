import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiAcceptedResponse, ApiBody, ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AuthContext, CurrentAuth } from '@app/auth';
import { ApiErrors, CustomerApi, IDEMPOTENCY_KEY_HEADER } from '../common/openapi';
import { JobAcceptedDto } from '../jobs/dto/job.dto';
import { AsyncScrapeRequestDto, ScrapeRequestDto } from './dto/scrape-request.dto';
import { PageResultDto } from './dto/page-result.dto';
import { ScrapeService } from './scrape.service';
import { BatchService } from './batch.service';
import { BatchRequestDto } from './dto/batch-request.dto';
import { BatchBody, BatchRequestPipe } from './batch-request.pipe';
import { BATCH_BODY_LIMIT, OPTIONS_BODY_LIMIT } from '../common/json-body';

@Controller('v1/scrape')
@CustomerApi('scrape')
export class ScrapeController {
  constructor(
    private readonly scrape: ScrapeService,
    private readonly batches: BatchService,
  ) {}

  @Post()
  @RouteConfig({ bodyLimit: OPTIONS_BODY_LIMIT })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Renders one page now',
    description:
      'Waits for a worker. A page that failed is still a 200, with `error`; a page that took its ' +
      'worker down on every attempt (PAGE_MAX_ATTEMPTS) is one, with `RENDER_CRASH`.',
  })
  @ApiOkResponse({ type: PageResultDto })
  @ApiErrors(400, 402, 413, 504)
  async scrapeNow(@CurrentAuth() auth: AuthContext, @Body() body: ScrapeRequestDto): Promise<PageResultDto> {
    return this.scrape.scrape(auth, body);
  }

  /** Spec "POST /v1/scrape/batch/async": up to 1,000,000 URLs, accepted at once. */
  @Post('batch/async')
  @RouteConfig({ bodyLimit: BATCH_BODY_LIMIT })
  @HttpCode(202)
  @ApiOperation({
    summary: 'Queues a batch of up to 1,000,000 URLs',
    description:
      'Reserves one page of the monthly quota per URL. Results by polling GET /v1/jobs/{id} or by webhook.',
  })
  // The body is read past the global pipe (BatchBody), so its type is declared here.
  @ApiBody({ type: BatchRequestDto })
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiAcceptedResponse({ type: JobAcceptedDto })
  @ApiErrors(400, 402, 409, 413)
  async batch(
    @CurrentAuth() auth: AuthContext,
    @BatchBody(new BatchRequestPipe()) body: BatchRequestDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<JobAcceptedDto> {
    return this.batches.accept(auth, body, idempotencyKey);
  }

  @Post('async')
  @RouteConfig({ bodyLimit: OPTIONS_BODY_LIMIT })
  @HttpCode(202)
  @ApiOperation({
    summary: 'Queues one page',
    description: 'Results by polling GET /v1/jobs/{id} or by webhook.',
  })
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiAcceptedResponse({ type: JobAcceptedDto })
  @ApiErrors(400, 402, 409, 413)
  async scrapeLater(
    @CurrentAuth() auth: AuthContext,
    @Body() body: AsyncScrapeRequestDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<JobAcceptedDto> {
    return this.scrape.scrapeAsync(auth, body, idempotencyKey);
  }
}
