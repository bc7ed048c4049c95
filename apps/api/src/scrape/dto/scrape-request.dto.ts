import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { WEBHOOK_URL_DESCRIPTION } from '../../common/openapi';
import { ScrapeOptionsDto } from './scrape-options.dto';

export class ScrapeRequestDto extends ScrapeOptionsDto {
  /** Checked further (scheme, credentials, address policy) by TargetUrlChecker. */
  @ApiProperty({
    format: 'uri',
    description: 'An http or https URL of a public address.',
    example: 'https://example.com/',
  })
  @IsString()
  url: string;
}

export class AsyncScrapeRequestDto extends ScrapeRequestDto {
  @ApiPropertyOptional({ format: 'uri', description: WEBHOOK_URL_DESCRIPTION })
  @IsOptional()
  @IsString()
  webhook_url?: string;
}
