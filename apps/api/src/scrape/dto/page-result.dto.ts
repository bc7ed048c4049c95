import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  BROWSER_ENGINES,
  PAGE_ERROR_CODES,
  type ActionResults,
  type EngineName,
  type JsonType,
  type PageErrorCode,
  type PageMetadata,
  type PageResult,
} from '@app/queue-contracts';

class PageMetadataDto implements PageMetadata {
  @ApiProperty({ type: String, nullable: true })
  title: string | null;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The author's name, or several, comma-separated.",
  })
  author: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2025-09-04T08:30:00.000Z',
    description: 'When the page says it was published, ISO 8601: a date, or a date and time in UTC.',
  })
  published_at: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'en' })
  language: string | null;

  @ApiProperty({ type: String, nullable: true })
  canonical_url: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The name of the site the page belongs to.' })
  site_name: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: "A PDF's pages; absent for other documents.",
  })
  page_count?: number;

  @ApiProperty({ enum: ['http', ...BROWSER_ENGINES], description: 'What rendered the page.' })
  engine: EngineName;

  @ApiProperty({
    enum: ['hit', 'miss'],
    description:
      '`hit`: answered from the result cache (`max_age`), not rendered for this request; `miss`: rendered for it.',
  })
  cache_state: 'hit' | 'miss';

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: "A hit's: when the page was rendered. Null for a miss.",
  })
  cached_at: string | null;
}

class PageTimingsDto {
  @ApiProperty({ type: 'integer' })
  total_ms: number;

  @ApiProperty({ type: 'integer' })
  render_ms: number;
}

class JavascriptReturnDto {
  @ApiProperty({ enum: ['null', 'boolean', 'number', 'string', 'array', 'object'] })
  type: JsonType;

  @ApiProperty({ description: 'What the script returned, as JSON (null for undefined).' })
  value: unknown;
}

class ScrapeSnapshotDto {
  @ApiProperty()
  url: string;

  @ApiProperty({ description: "The page's HTML at that point." })
  html: string;
}

class ActionResultsDto implements ActionResults {
  @ApiProperty({ type: [String], format: 'byte', description: 'Base64 PNGs, one per `screenshot` action.' })
  screenshots: string[];

  @ApiProperty({ type: [JavascriptReturnDto], description: 'One per `execute_javascript` action.' })
  javascript_returns: JavascriptReturnDto[];

  @ApiProperty({ type: [ScrapeSnapshotDto], description: 'One per `scrape` action.' })
  scrapes: ScrapeSnapshotDto[];
}

class PageErrorDto {
  @ApiProperty({ enum: PAGE_ERROR_CODES })
  code: PageErrorCode;

  @ApiProperty()
  message: string;
}

/**
 * A page result (docs/api.md, Page result). Only the formats asked for are present. A page that
 * failed (including a target answering >= 400, which still reports `status_code`) carries `error`.
 */
export class PageResultDto implements PageResult {
  @ApiProperty({
    type: 'integer',
    description: "The URL's position: in the batch's input, or in a crawl's discovery order.",
  })
  index: number;

  @ApiProperty()
  url: string;

  @ApiProperty({ type: String, nullable: true, description: 'After redirects.' })
  final_url: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  status_code: number | null;

  @ApiPropertyOptional()
  markdown?: string;

  @ApiPropertyOptional()
  html?: string;

  @ApiPropertyOptional()
  raw_html?: string;

  @ApiPropertyOptional()
  text?: string;

  @ApiPropertyOptional({ type: [String], description: 'Absolute URLs of the links on the page.' })
  links?: string[];

  @ApiPropertyOptional({ description: 'Base64 PNG.', format: 'byte' })
  screenshot?: string;

  @ApiProperty({ type: PageMetadataDto })
  metadata: PageMetadataDto;

  @ApiProperty({ type: PageTimingsDto })
  timings: PageTimingsDto;

  @ApiPropertyOptional({
    type: ActionResultsDto,
    description:
      "What the request's `actions` brought back, in their order; on ACTION_FAILED, what the actions before the failing one did.",
  })
  actions?: ActionResultsDto;

  @ApiPropertyOptional({ type: PageErrorDto })
  error?: PageErrorDto;
}
