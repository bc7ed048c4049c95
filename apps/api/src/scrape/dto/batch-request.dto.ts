import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsOptional, IsString } from 'class-validator';
import { ScrapeOptionsDto } from './scrape-options.dto';

/** DESIGN.md "Plans": max URLs per batch. */
export const MAX_BATCH_URLS = 1_000_000;

export class BatchRequestDto extends ScrapeOptionsDto {
  /** Each URL is checked by BatchService in one fast pass (class-validator per item is too slow at 1M). */
  @ArrayMaxSize(MAX_BATCH_URLS, { message: `urls must contain at most ${MAX_BATCH_URLS} URLs` })
  @ArrayNotEmpty()
  @IsArray()
  urls: unknown[];

  @IsOptional()
  @IsString()
  webhook_url?: string;
}
