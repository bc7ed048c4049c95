import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
  Validate,
} from 'class-validator';
import { parseHTML } from 'linkedom';
import {
  BROWSER_ENGINES,
  BrowserEngine,
  MAX_TIMEOUT_MS,
  OUTPUT_FORMATS,
  OutputFormat,
  RENDER_MODES,
  RenderMode,
  SCRAPE_DEFAULTS,
  ScrapeOptions,
} from '@app/queue-contracts';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
// Hop-by-hop and routing headers are ours to set, not the caller's.
const FORBIDDEN_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-connection',
]);

@ValidatorConstraint({ name: 'headers' })
class HeadersConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const entries = Object.entries(value as Record<string, unknown>);
    return (
      entries.length <= 50 &&
      entries.every(
        ([name, v]) =>
          HEADER_NAME.test(name) &&
          !FORBIDDEN_HEADERS.has(name.toLowerCase()) &&
          typeof v === 'string' &&
          v.length <= 8192 &&
          !/[\r\n\0]/.test(v),
      )
    );
  }

  defaultMessage(): string {
    return 'must be an object of at most 50 header names to string values (no hop-by-hop or Host headers)';
  }
}

// An empty document to try selectors on: the worker applies them with the same parser (linkedom),
// so a selector it would choke on is refused here, at acceptance, instead of failing every page.
const { document: selectorProbe } = parseHTML('<html><body></body></html>');

function isCssSelector(value: string): boolean {
  try {
    selectorProbe.querySelector(value);
    return true;
  } catch {
    return false;
  }
}

@ValidatorConstraint({ name: 'waitFor' })
class WaitForConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value <= MAX_TIMEOUT_MS;
    return (
      typeof value === 'string' && value.trim().length > 0 && value.length <= 500 && isCssSelector(value)
    );
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be a CSS selector or a number of milliseconds from 0 to ${MAX_TIMEOUT_MS}`;
  }
}

@ValidatorConstraint({ name: 'cssSelectors' })
class CssSelectorsConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return Array.isArray(value) && value.every((v) => typeof v === 'string' && isCssSelector(v));
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be valid CSS selectors`;
  }
}

/**
 * An optional list of at most 50 CSS selectors the worker's parser accepts. The checks are listed
 * in the order stacked decorators run (bottom first), so the first failing one is the one named.
 */
const CssSelectorList = (description: string) =>
  applyDecorators(
    IsArray(),
    ArrayMaxSize(50),
    IsString({ each: true }),
    Length(1, 200, { each: true }),
    Validate(CssSelectorsConstraint),
    IsOptional(),
    ApiPropertyOptional({ type: [String], maxItems: 50, description }),
  );

/**
 * Request options (docs/api.md), shared by scrape, batch and crawl requests. Decorators run
 * bottom-up and only the first failure of a field is reported, so the type check sits nearest the field.
 */
export class ScrapeOptionsDto {
  @ApiPropertyOptional({
    enum: OUTPUT_FORMATS,
    description: 'One output format (markdown when neither this nor `formats` is given).',
  })
  @IsOptional()
  @IsIn(OUTPUT_FORMATS)
  format?: OutputFormat;

  @ApiPropertyOptional({
    enum: OUTPUT_FORMATS,
    isArray: true,
    minItems: 1,
    uniqueItems: true,
    description: 'Several output formats; wins over `format`.',
  })
  @IsOptional()
  @IsIn(OUTPUT_FORMATS, { each: true })
  @ArrayUnique()
  @ArrayNotEmpty()
  @IsArray()
  formats?: OutputFormat[];

  @ApiPropertyOptional({
    default: SCRAPE_DEFAULTS.only_main_content,
    description: "Only the page's main content (the markdown still starts with the page's title heading).",
  })
  @IsOptional()
  @IsBoolean()
  only_main_content?: boolean;

  @ApiPropertyOptional({
    enum: RENDER_MODES,
    default: SCRAPE_DEFAULTS.render,
    description: '`auto`: plain HTTP first, the browser when the page needs JavaScript.',
  })
  @IsOptional()
  @IsIn(RENDER_MODES)
  render?: RenderMode;

  @ApiPropertyOptional({ enum: BROWSER_ENGINES, default: SCRAPE_DEFAULTS.engine })
  @IsOptional()
  @IsIn(BROWSER_ENGINES)
  engine?: BrowserEngine;

  @ApiPropertyOptional({
    oneOf: [
      { type: 'string', minLength: 1, maxLength: 500, description: 'A CSS selector.' },
      { type: 'integer', minimum: 0, maximum: MAX_TIMEOUT_MS, description: 'Milliseconds.' },
    ],
    description: 'What to wait for before capturing: a CSS selector, or a number of milliseconds.',
  })
  @IsOptional()
  @Validate(WaitForConstraint)
  wait_for?: string | number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1000,
    maximum: MAX_TIMEOUT_MS,
    default: SCRAPE_DEFAULTS.timeout,
    description: 'Milliseconds for the whole page.',
  })
  @IsOptional()
  @Max(MAX_TIMEOUT_MS)
  @Min(1000)
  @IsInt()
  timeout?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 8192 },
    maxProperties: 50,
    description:
      'Headers sent with every request of the page (no hop-by-hop or Host headers). Treated as secrets: never logged or echoed.',
  })
  @IsOptional()
  @Validate(HeadersConstraint)
  headers?: Record<string, string>;

  @ApiPropertyOptional({ default: SCRAPE_DEFAULTS.mobile, description: 'A mobile viewport and user agent.' })
  @IsOptional()
  @IsBoolean()
  mobile?: boolean;

  @ApiPropertyOptional({
    default: SCRAPE_DEFAULTS.block_resources,
    description: 'Skip images, media and fonts.',
  })
  @IsOptional()
  @IsBoolean()
  block_resources?: boolean;

  /** CSS selectors: only these parts of the page are converted. */
  @CssSelectorList('CSS selectors: only these parts of the page are converted.')
  include_tags?: string[];

  /** CSS selectors removed before conversion. */
  @CssSelectorList('CSS selectors removed before conversion.')
  exclude_tags?: string[];
}

/** Request options with every default filled in: what the worker renders with. */
export function toScrapeOptions(dto: ScrapeOptionsDto): ScrapeOptions {
  const formats = dto.formats ?? (dto.format ? [dto.format] : SCRAPE_DEFAULTS.formats);
  const options: ScrapeOptions = {
    formats,
    only_main_content: dto.only_main_content ?? SCRAPE_DEFAULTS.only_main_content,
    render: dto.render ?? SCRAPE_DEFAULTS.render,
    engine: dto.engine ?? SCRAPE_DEFAULTS.engine,
    timeout: dto.timeout ?? SCRAPE_DEFAULTS.timeout,
    mobile: dto.mobile ?? SCRAPE_DEFAULTS.mobile,
    block_resources: dto.block_resources ?? SCRAPE_DEFAULTS.block_resources,
  };
  if (dto.wait_for !== undefined) options.wait_for = dto.wait_for;
  if (dto.headers) options.headers = dto.headers;
  if (dto.include_tags) options.include_tags = dto.include_tags;
  if (dto.exclude_tags) options.exclude_tags = dto.exclude_tags;
  return options;
}
