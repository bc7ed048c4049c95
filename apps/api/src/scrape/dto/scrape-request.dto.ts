import { IsOptional, IsString } from 'class-validator';
import { ScrapeOptionsDto } from './scrape-options.dto';

export class ScrapeRequestDto extends ScrapeOptionsDto {
  /** Checked further (scheme, credentials, address policy) by TargetUrlChecker. */
  @IsString()
  url: string;
}

export class AsyncScrapeRequestDto extends ScrapeRequestDto {
  @IsOptional()
  @IsString()
  webhook_url?: string;
}
