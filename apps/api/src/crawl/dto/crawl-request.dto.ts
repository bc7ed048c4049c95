import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  Validate,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { RE2JS } from 're2js';
import {
  CRAWL_DEFAULTS,
  CrawlOptions,
  MAX_CRAWL_DEPTH,
  MAX_CRAWL_LIMIT,
  MAX_PATH_PATTERN_LENGTH,
  MAX_PATH_PATTERNS,
} from '@app/queue-contracts';
import { WEBHOOK_URL_DESCRIPTION } from '../../common/openapi';
import { ScrapeOptionsDto, toScrapeOptions } from '../../scrape/dto/scrape-options.dto';

/**
 * Path patterns are compiled here with the engine the worker matches them with: RE2 (linear time,
 * so a pattern like `(a+)+$` cannot hang a worker), which refuses lookaround and backreferences.
 */
@ValidatorConstraint({ name: 'pathPatterns' })
class PathPatternsConstraint implements ValidatorConstraintInterface {
  private problem = '';

  validate(value: unknown): boolean {
    if (!Array.isArray(value) || value.length > MAX_PATH_PATTERNS) {
      this.problem = `must be an array of at most ${MAX_PATH_PATTERNS} patterns`;
      return false;
    }
    for (const [i, pattern] of value.entries()) {
      if (typeof pattern !== 'string' || pattern.length < 1 || pattern.length > MAX_PATH_PATTERN_LENGTH) {
        this.problem = `[${i}] must be a pattern of 1 to ${MAX_PATH_PATTERN_LENGTH} characters`;
        return false;
      }
      try {
        RE2JS.compile(pattern);
      } catch (err) {
        this.problem = `[${i}] is not a valid RE2 pattern (${(err as Error).message})`;
        return false;
      }
    }
    return true;
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property}${this.problem.startsWith('[') ? '' : ' '}${this.problem}`;
  }
}

/** POST /v1/crawl (the scrape options apply to every page; the crawl adds its own). */
export class CrawlRequestDto extends ScrapeOptionsDto {
  /** The start page; checked further (scheme, credentials, address policy) by UrlChecker. */
  @ApiProperty({ format: 'uri', description: 'The start page: an http or https URL of a public address.' })
  @IsString()
  url: string;

  @ApiPropertyOptional({ format: 'uri', description: WEBHOOK_URL_DESCRIPTION })
  @IsOptional()
  @IsString()
  webhook_url?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_CRAWL_LIMIT,
    default: CRAWL_DEFAULTS.limit,
    description: 'Most pages to fetch; reserved from the quota at acceptance, the unused part given back.',
  })
  @IsOptional()
  @Max(MAX_CRAWL_LIMIT)
  @Min(1)
  @IsInt()
  limit?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_CRAWL_DEPTH,
    default: CRAWL_DEFAULTS.max_depth,
    description: 'Links followed from the start page (0: the start page only).',
  })
  @IsOptional()
  @Max(MAX_CRAWL_DEPTH)
  @Min(0)
  @IsInt()
  max_depth?: number;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_PATH_PATTERNS,
    description: 'RE2 patterns: only URL paths matching one are crawled.',
  })
  @IsOptional()
  @Validate(PathPatternsConstraint)
  @IsArray()
  include_paths?: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_PATH_PATTERNS,
    description: 'RE2 patterns: URL paths matching one are skipped.',
  })
  @IsOptional()
  @Validate(PathPatternsConstraint)
  @IsArray()
  exclude_paths?: string[];

  @ApiPropertyOptional({
    default: CRAWL_DEFAULTS.allow_subdomains,
    description: "Follow links to the start host's subdomains.",
  })
  @IsOptional()
  @IsBoolean()
  allow_subdomains?: boolean;

  @ApiPropertyOptional({
    default: CRAWL_DEFAULTS.allow_external_links,
    description: 'Follow links to other sites.',
  })
  @IsOptional()
  @IsBoolean()
  allow_external_links?: boolean;

  @ApiPropertyOptional({
    default: CRAWL_DEFAULTS.ignore_sitemap,
    description: "Do not seed the crawl from the site's sitemap.",
  })
  @IsOptional()
  @IsBoolean()
  ignore_sitemap?: boolean;

  @ApiPropertyOptional({
    default: CRAWL_DEFAULTS.respect_robots_txt,
    description: 'Honour robots.txt rules and Crawl-delay.',
  })
  @IsOptional()
  @IsBoolean()
  respect_robots_txt?: boolean;
}

/** Every default filled in: what the worker crawls with. */
export function toCrawlOptions(dto: CrawlRequestDto): CrawlOptions {
  return {
    ...toScrapeOptions(dto),
    limit: dto.limit ?? CRAWL_DEFAULTS.limit,
    max_depth: dto.max_depth ?? CRAWL_DEFAULTS.max_depth,
    include_paths: dto.include_paths ?? CRAWL_DEFAULTS.include_paths,
    exclude_paths: dto.exclude_paths ?? CRAWL_DEFAULTS.exclude_paths,
    allow_subdomains: dto.allow_subdomains ?? CRAWL_DEFAULTS.allow_subdomains,
    allow_external_links: dto.allow_external_links ?? CRAWL_DEFAULTS.allow_external_links,
    ignore_sitemap: dto.ignore_sitemap ?? CRAWL_DEFAULTS.ignore_sitemap,
    respect_robots_txt: dto.respect_robots_txt ?? CRAWL_DEFAULTS.respect_robots_txt,
  };
}
