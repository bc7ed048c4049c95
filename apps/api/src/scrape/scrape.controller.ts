import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { AuthContext, CurrentAuth } from '@app/auth';
import type { PageResult } from '@app/queue-contracts';
import type { JobAccepted } from '@app/persistence';
import { AsyncScrapeRequestDto, ScrapeRequestDto } from './dto/scrape-request.dto';
import { ScrapeService } from './scrape.service';

@Controller('v1/scrape')
export class ScrapeController {
  constructor(private readonly scrape: ScrapeService) {}

  @Post()
  @HttpCode(200)
  async scrapeNow(@CurrentAuth() auth: AuthContext, @Body() body: ScrapeRequestDto): Promise<PageResult> {
    return this.scrape.scrape(auth, body);
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
