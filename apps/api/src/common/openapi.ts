import { INestApplication, applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
  DocumentBuilder,
  OpenAPIObject,
  SwaggerModule,
} from '@nestjs/swagger';
import type { HeadersObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

export const WEBHOOK_URL_DESCRIPTION =
  'An https address of a public host: the completion webhook goes there (signed, retried). Without it, poll GET /v1/jobs/{id}.';

export const IDEMPOTENCY_KEY_HEADER = {
  name: 'idempotency-key',
  required: false,
  schema: { type: 'string' as const, maxLength: 255 },
  description: 'The same key within 24 h returns the first job and creates nothing; with another body, 409.',
};

/** Security scheme names: customers' API keys, and the admin API's bearer. */
export const API_KEY_AUTH = 'apiKey';
export const ADMIN_AUTH = 'adminToken';

class FieldProblemDto {
  @ApiProperty({ example: 'urls[3]' })
  field: string;

  @ApiProperty({ example: 'must be an http or https URL' })
  message: string;
}

/** Every non-2xx body (docs/api.md, Errors). */
export class ErrorBodyDto {
  @ApiProperty({ description: 'What went wrong, for a person.', example: 'Rate limit exceeded' })
  detail: string;

  @ApiProperty({
    enum: [
      'invalid_request',
      'unauthorized',
      'quota_exceeded',
      'forbidden',
      'not_found',
      'conflict',
      'payload_too_large',
      'rate_limited',
      'internal',
      'unavailable',
      'timeout',
    ],
    description: 'Stable, for code.',
  })
  code: string;

  @ApiPropertyOptional({ type: [FieldProblemDto], description: '400: each invalid field.' })
  errors?: FieldProblemDto[];

  @ApiPropertyOptional({ description: '500: quote it when reporting the error.', format: 'uuid' })
  error_id?: string;

  @ApiPropertyOptional({ description: "402: the plan's monthly page quota." })
  limit?: number;

  @ApiPropertyOptional({ description: '402: pages reserved this month.' })
  used?: number;

  @ApiPropertyOptional({ description: '402: when the quota resets (UTC month start).', format: 'date-time' })
  resets_at?: string;
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const } });

const RATE_LIMIT_HEADERS: HeadersObject = {
  'x-ratelimit-limit': integerHeader("The plan's requests per minute."),
  'x-ratelimit-remaining': integerHeader('Requests left in the bucket.'),
  'x-ratelimit-reset': integerHeader('Seconds until the bucket is full again.'),
};

const ERRORS = {
  400: { description: 'Invalid request: `errors` lists each field (code `invalid_request`).' },
  401: {
    description: 'Missing, malformed, unknown or revoked key; one body for all (code `unauthorized`).',
    headers: { 'www-authenticate': { description: '`Bearer`', schema: { type: 'string' as const } } },
  },
  402: {
    description:
      'Not enough of the monthly quota left (code `quota_exceeded`, with `limit`, `used`, `resets_at`).',
  },
  404: { description: 'Not found, or not visible to this key (code `not_found`).' },
  409: {
    description:
      "The Idempotency-Key was used before with another body, the resource exists, or a new `session_id` would pass the plan's session cap (code `conflict`).",
  },
  413: { description: 'Request body too large (code `payload_too_large`).' },
  429: {
    description:
      'Per-minute rate limit reached, or too many failed authentications from the client address (AUTH_FAIL_LIMIT_PER_MIN, without the x-ratelimit headers); detail is exactly "Rate limit exceeded" (code `rate_limited`).',
    headers: {
      'retry-after': integerHeader('Seconds until a request is allowed again (at least 1).'),
      ...RATE_LIMIT_HEADERS,
    },
  },
  503: {
    description:
      'Unavailable: MySQL or Redis is down (with retry-after), the worker could not render a sync page, or the server is shutting down (code `unavailable`).',
    headers: { 'retry-after': integerHeader('Seconds to wait, when a backing store is down.') },
  },
  504: { description: 'No worker answered in time (code `timeout`).' },
} as const;

export type ErrorStatus = keyof typeof ERRORS;

/** The error answers a route can give, each with the API's error body. */
export const ApiErrors = (...statuses: ErrorStatus[]) =>
  applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, type: ErrorBodyDto, ...ERRORS[status] })),
  );

/** A customer route: the API key, and the 401, 429 and 503 every such route can answer. */
export const CustomerApi = (tag: string) =>
  applyDecorators(ApiTags(tag), ApiBearerAuth(API_KEY_AUTH), ApiErrors(401, 429, 503));

/** Builds the OpenAPI document from the app's controllers and DTOs (committed as docs/openapi.json). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Scraper cluster API')
    .setDescription(
      'Turns web pages into markdown and other formats: one URL now, or as jobs (a URL, a batch of up to ' +
        '1,000,000 URLs, a crawl) polled or delivered by signed webhook. Every /v1 call takes ' +
        '`Authorization: Bearer <API key>` and carries the rate-limit headers `x-ratelimit-limit`, ' +
        '`x-ratelimit-remaining`, `x-ratelimit-reset`, `RateLimit-Policy` and `RateLimit`; every ' +
        'response carries `x-request-id`. Errors are `{detail, code}` JSON.',
    )
    .setVersion('1')
    .setLicense('UNLICENSED', 'https://spdx.org/licenses/')
    .addServer('http://localhost:3000', 'A local `npm start`')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'An API key: `osk_live_…` (production) or `osk_test_…` (sandbox).',
      },
      API_KEY_AUTH,
    )
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN.' }, ADMIN_AUTH)
    .addTag('scrape', 'Pages now (sync) or as jobs')
    .addTag('crawl', 'Whole-site crawls')
    .addTag('map', "A site's URLs now, without fetching them")
    .addTag('jobs', 'Polling, listing and cancelling jobs')
    .addTag('sessions', 'Cookies and storage kept across requests')
    .addTag('account', 'Plan, usage and API keys of the caller')
    .addTag('webhooks', 'Signing secret and delivery log')
    .addTag('admin', 'Operator API (ADMIN_TOKEN)')
    .addTag('health', 'Liveness, readiness and metrics')
    .build();
  return SwaggerModule.createDocument(app, config, {
    // e.g. WebhookDeliveriesController.list -> webhookDeliveriesList
    operationIdFactory: (controller, method) =>
      controller.replace(/Controller$/, '').replace(/^./, (c) => c.toLowerCase()) +
      method.replace(/^./, (c) => c.toUpperCase()),
  });
}

/** GET /docs (Swagger UI, assets from swagger-ui-dist in node_modules) and GET /docs/openapi.json. */
export function serveOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    raw: ['json'],
    customSiteTitle: 'Scraper cluster API',
  });
}
