import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAP_DEFAULTS, MAX_MAP_LIMIT, MAX_MAP_SEARCH_LENGTH, type ProxyChoice } from '@app/queue-contracts';
import { ProxyField } from '../../scrape/dto/scrape-options.dto';

/** POST /v1/map. */
export class MapRequestDto {
  /** Checked further (scheme, credentials, address policy) by UrlChecker. */
  @ApiProperty({
    format: 'uri',
    description: 'The site to list, by its start page: an http or https URL of a public address.',
    example: 'https://example.com/',
  })
  @IsString()
  url: string;

  @ApiPropertyOptional({
    maxLength: MAX_MAP_SEARCH_LENGTH,
    description: 'Words (space-separated, any case): URLs holding more of them are listed first.',
  })
  @IsOptional()
  @MaxLength(MAX_MAP_SEARCH_LENGTH)
  @IsString()
  search?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_MAP_LIMIT,
    default: MAP_DEFAULTS.limit,
    description: 'Most URLs listed.',
  })
  @IsOptional()
  @Max(MAX_MAP_LIMIT)
  @Min(1)
  @IsInt()
  limit?: number;

  @ApiPropertyOptional({
    default: MAP_DEFAULTS.allow_subdomains,
    description: "List the start host's subdomains' URLs too.",
  })
  @IsOptional()
  @IsBoolean()
  allow_subdomains?: boolean;

  @ApiPropertyOptional({
    default: MAP_DEFAULTS.ignore_sitemap,
    description: "Do not read the site's sitemaps: the start page's links only.",
  })
  @IsOptional()
  @IsBoolean()
  ignore_sitemap?: boolean;

  @ProxyField(
    "The upstream proxy the start page, robots.txt and the sitemaps are fetched through: `none` (direct), `pool` (the operator's PROXY_URLS, the default when set) or your own `{url, username?, password?}`, as a scrape's `proxy`. Credentials are secrets: queued sealed, never logged or echoed.",
  )
  proxy?: ProxyChoice;
}

export class MapResultDto {
  @ApiProperty({
    type: [String],
    description:
      'The URLs, normalised and deduplicated as a crawl does: the start URL, its sitemaps’ URLs, its links (or ranked by `search`).',
  })
  links: string[];

  @ApiProperty({ description: 'More URLs were found than `limit`: the first `limit` are listed.' })
  truncated: boolean;
}
