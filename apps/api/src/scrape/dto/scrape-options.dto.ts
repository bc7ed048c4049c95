import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsObject,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
  Validate,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import {
  BROWSER_ENGINES,
  BrowserEngine,
  MAX_MAX_AGE_MS,
  MAX_TIMEOUT_MS,
  OUTPUT_FORMATS,
  OutputFormat,
  ProxyChoice,
  RENDER_MODES,
  RenderMode,
  SCRAPE_DEFAULTS,
  SESSION_ID_PATTERN,
  ScrapeOptions,
} from '@app/queue-contracts';
import { ActionDto, toPageActions } from './action.dto';
import { isCssSelector } from './css-selector';

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

const PROXY_FIELDS: Record<string, number> = { url: 2048, username: 255, password: 255 };

@ValidatorConstraint({ name: 'proxy' })
class ProxyConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (value === 'none' || value === 'pool') return true;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const entries = Object.entries(value as Record<string, unknown>);
    return (
      typeof (value as { url?: unknown }).url === 'string' &&
      entries.every(
        ([name, v]) => name in PROXY_FIELDS && typeof v === 'string' && v.length <= PROXY_FIELDS[name],
      )
    );
  }

  defaultMessage(): string {
    return 'must be "none", "pool" or {url, username?, password?} (strings; url at most 2048 characters, the others 255)';
  }
}

/** `proxy` on a request (docs/api.md, Upstream proxies): the scrape options' and a map's. */
export function ProxyField(description: string) {
  return applyDecorators(
    ApiPropertyOptional({
      oneOf: [
        { type: 'string', enum: ['none', 'pool'] },
        {
          type: 'object',
          required: ['url'],
          additionalProperties: false,
          properties: {
            url: { type: 'string', maxLength: 2048, example: 'socks5://proxy.example.com:1080' },
            username: { type: 'string', maxLength: 255 },
            password: { type: 'string', maxLength: 255 },
          },
        },
      ],
      description,
    }),
    IsOptional(),
    Validate(ProxyConstraint),
  );
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

@ValidatorConstraint({ name: 'actionsNeedBrowser' })
class ActionsNeedBrowserConstraint implements ValidatorConstraintInterface {
  validate(_: unknown, args: ValidationArguments): boolean {
    return (args.object as ScrapeOptionsDto).render !== 'http';
  }

  defaultMessage(): string {
    return 'actions need a browser: render http takes none';
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
    description:
      'What ends the wait before capturing, in place of the readiness rule (the page loaded and quiet): a CSS selector, captured as soon as it is present and the DOM has been still for RENDER_IDLE_MS (no network wait), the page failing with TIMEOUT, naming the selector, if it never appears; or a number of milliseconds to wait after the load event, then captured as it is.',
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
      "Headers sent only to the URL's origin (scheme, host and port): the document and the page's own requests to it, never another origin the page loads from or a redirect leads to; a crawl's only to its start URL's origin. No hop-by-hop or Host headers. Treated as secrets: stored sealed, never logged or echoed.",
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
    description:
      'Skip images, media and fonts. Defaults to true, or to false when formats asks for a screenshot (it shows the images).',
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

  @ApiPropertyOptional({
    type: [ActionDto],
    maxItems: 50,
    description:
      'Done in order once the page is ready, in a browser (`render: auto` takes one; `render: http` is refused); the page is read after the last one. At most ACTIONS_MAX_COUNT (50 by default); their time counts toward `timeout`. See docs/api.md, Page actions.',
  })
  @ValidateNested({ each: true })
  @Type(() => ActionDto)
  @IsObject({ each: true })
  @Validate(ActionsNeedBrowserConstraint)
  @ArrayMaxSize(1000)
  @IsArray()
  @IsOptional()
  actions?: ActionDto[];

  @ApiPropertyOptional({
    pattern: SESSION_ID_PATTERN.source,
    maxLength: 128,
    description:
      "A session of the caller's choosing: the page starts with the cookies and localStorage the session's earlier requests left, and what it leaves is kept for the next (an http render keeps cookies only). Takes a browser under `render: auto`. Pages of one session are served one at a time. See docs/api.md, Sessions.",
  })
  @IsOptional()
  @Matches(SESSION_ID_PATTERN, {
    message: 'session_id must be 1 to 128 letters, digits, dots, underscores or dashes',
  })
  @IsString()
  session_id?: string;

  @ProxyField(
    "The upstream proxy the pages go through, and a crawl's robots.txt and sitemaps: `none` (direct), `pool` (the operator's PROXY_URLS, the default when set: round robin per page, one per `session_id`), or your own `{url, username?, password?}` (`http://`, `https://` or `socks5://`; credentials also as `user:password@` in the URL). Every engine honours it. Credentials are secrets: stored sealed, never logged or echoed. A proxy that fails or refuses the credentials fails the page with `PROXY`.",
  )
  proxy?: ProxyChoice;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_MAX_AGE_MS,
    default: 0,
    description:
      'Milliseconds: a page rendered for this account and environment with the same content options at most this long ago is answered from the result cache (`metadata.cache_state: hit`) instead of being rendered. 0 (the default): always rendered; every page that succeeds is cached whatever `max_age` says. Requests with `actions`, `headers` or `session_id` are never served from the cache nor cached. A hit counts as a page. See docs/api.md, Cached results.',
  })
  @IsOptional()
  @Max(MAX_MAX_AGE_MS)
  @Min(0)
  @IsInt()
  max_age?: number;
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
    // A screenshot shows the page's images and fonts: not blocked unless asked.
    block_resources:
      dto.block_resources ?? (formats.includes('screenshot') ? false : SCRAPE_DEFAULTS.block_resources),
  };
  if (dto.wait_for !== undefined) options.wait_for = dto.wait_for;
  if (dto.headers) options.headers = dto.headers;
  if (dto.include_tags) options.include_tags = dto.include_tags;
  if (dto.exclude_tags) options.exclude_tags = dto.exclude_tags;
  if (dto.actions?.length) options.actions = toPageActions(dto.actions);
  if (dto.session_id !== undefined) options.session_id = dto.session_id;
  if (dto.proxy !== undefined) options.proxy = dto.proxy;
  if (dto.max_age) options.max_age = dto.max_age;
  return options;
}
