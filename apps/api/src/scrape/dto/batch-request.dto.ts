import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsOptional, IsString } from 'class-validator';
import { WEBHOOK_URL_DESCRIPTION } from '../../common/openapi';
import { ScrapeOptionsDto } from './scrape-options.dto';

/** DESIGN.md "Plans": max URLs per batch. */
export const MAX_BATCH_URLS = 1_000_000;

export class BatchRequestDto extends ScrapeOptionsDto {
  /** Each URL is checked by BatchService in one fast pass (class-validator per item is too slow at 1M). */
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_BATCH_URLS,
    description: 'http or https URLs of public addresses; a bad one gives 400 naming its index.',
  })
  @ArrayMaxSize(MAX_BATCH_URLS, { message: `urls must contain at most ${MAX_BATCH_URLS} URLs` })
  @ArrayNotEmpty()
  @IsArray()
  urls: unknown[];

  @ApiPropertyOptional({ format: 'uri', description: WEBHOOK_URL_DESCRIPTION })
  @IsOptional()
  @IsString()
  webhook_url?: string;
}
