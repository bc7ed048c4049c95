import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { WEBHOOK_URL_DESCRIPTION } from '../../common/openapi';
import { ScrapeOptionsDto } from './scrape-options.dto';

/** Max URLs per batch, on every plan (docs/api.md, Limits). */
export const MAX_BATCH_URLS = 1_000_000;

export class BatchRequestDto extends ScrapeOptionsDto {
  /**
   * No class-validator rule: BatchRequestPipe checks the list's shape and BatchService each URL,
   * since the global ValidationPipe takes seconds to walk a million items.
   */
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_BATCH_URLS,
    description: 'http or https URLs of public addresses; a bad one gives 400 naming its index.',
  })
  urls: unknown[];

  @ApiPropertyOptional({ format: 'uri', description: WEBHOOK_URL_DESCRIPTION })
  @IsOptional()
  @IsString()
  webhook_url?: string;
}
