import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { AuthContext, CurrentAuth } from '@app/auth';
import type { PageResult } from '@app/queue-contracts';
import type { JobAccepted } from '@app/persistence';
import { AsyncScrapeRequestDto, ScrapeRequestDto } from './dto/scrape-request.dto';
import { ScrapeService } from './scrape.service';
import { BatchService } from './batch.service';
import { BatchRequestDto } from './dto/batch-request.dto';

@Controller('v1/scrape')
export class ScrapeController {
  constructor(
    private readonly scrape: ScrapeService,
    private readonly batches: BatchService,
  ) {}

  @Post()
  @HttpCode(200)
  async scrapeNow(@CurrentAuth() auth: AuthContext, @Body() body: ScrapeRequestDto): Promise<PageResult> {
    return this.scrape.scrape(auth, body);
  }

  /** Spec "POST /v1/scrape/batch/async": up to 1,000,000 URLs, accepted at once. */
  @Post('batch/async')
  @HttpCode(202)
  async batch(
    @CurrentAuth() auth: AuthContext,
    @Body() body: BatchRequestDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<JobAccepted> {
    return this.batches.accept(auth, body, idempotencyKey);
  }

  @Post('async')
  @HttpCode(202)
  async scrapeLater(
    @CurrentAuth() auth: AuthContext,
    @Body() body: AsyncScrapeRequestDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<JobAccepted> {
    return this.scrape.scrapeAsync(auth, body, idempotencyKey);
  }
}
