import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthContext, CurrentAuth } from '@app/auth';
import { InvalidRequestError, NotFoundError } from '@app/common';
import { BATCH_BODY_LIMIT, OPTIONS_BODY_LIMIT } from '../common/json-body';
import { FirecrawlVersion } from './firecrawl-response';
import { FirecrawlService } from './firecrawl.service';

/** Their batch and crawl statuses: one route each, the same answer (their v1 client polls a batch at /crawl). */
const JOB_KINDS = ['crawl', 'batch/scrape'] as const;
const STATUS_ROUTES = JOB_KINDS.map((k) => `${k}/:id`);
const ERROR_ROUTES = JOB_KINDS.map((k) => `${k}/:id/errors`);
const DEFAULT_STATUS_LIMIT = 100;

/**
 * Firecrawl's API (v1 and v2) under /firecrawl, for their SDK with `apiUrl: <base>/firecrawl` and
 * one of our keys (docs/firecrawl.md). Outside our OpenAPI document: their shapes are theirs.
 * Errors are our error filter's, reshaped into theirs on the way out (firecrawl-errors.ts).
 */
@ApiExcludeController()
@Controller('firecrawl/:version')
export class FirecrawlController {
  constructor(private readonly firecrawl: FirecrawlService) {}

  @Post('scrape')
  @RouteConfig({ bodyLimit: OPTIONS_BODY_LIMIT })
  async scrape(
    @CurrentAuth() auth: AuthContext,
    @Param('version') version: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    versionOf(version);
    const answer = await this.firecrawl.scrape(auth, body);
    void reply.code(answer.status);
    return answer.body;
  }

  @Post('batch/scrape')
  @RouteConfig({ bodyLimit: BATCH_BODY_LIMIT })
  @HttpCode(200)
  async batch(
    @CurrentAuth() auth: AuthContext,
    @Param('version') version: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
    @Headers('x-idempotency-key') idempotencyKey?: string,
  ) {
    return this.firecrawl.batch(auth, body, idempotencyKey, baseUrl(req, versionOf(version)));
  }

  @Post('crawl')
  @RouteConfig({ bodyLimit: OPTIONS_BODY_LIMIT })
  @HttpCode(200)
  async crawl(
    @CurrentAuth() auth: AuthContext,
    @Param('version') version: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
    @Headers('x-idempotency-key') idempotencyKey?: string,
  ) {
    return this.firecrawl.crawl(auth, body, idempotencyKey, baseUrl(req, versionOf(version)));
  }

  @Post('map')
  @RouteConfig({ bodyLimit: OPTIONS_BODY_LIMIT })
  @HttpCode(200)
  async map(@CurrentAuth() auth: AuthContext, @Param('version') version: string, @Body() body: unknown) {
    return this.firecrawl.map(auth, versionOf(version), body);
  }

  @Get(STATUS_ROUTES)
  async status(
    @CurrentAuth() auth: AuthContext,
    @Param('version') version: string,
    @Param('id') id: string,
    @Req() req: FastifyRequest,
    @Query('skip') skip?: string,
    @Query('limit') limit?: string,
  ) {
    const self = `${baseUrl(req, versionOf(version))}${req.url.slice(`/firecrawl/${version}`.length).split('?')[0]}`;
    return this.firecrawl.status(
      auth,
      id,
      count('skip', skip, 0, Number.MAX_SAFE_INTEGER) ?? 0,
      count('limit', limit, 1, 1000) ?? DEFAULT_STATUS_LIMIT,
      self,
    );
  }

  @Delete(STATUS_ROUTES)
  async cancel(@CurrentAuth() auth: AuthContext, @Param('version') version: string, @Param('id') id: string) {
    versionOf(version);
    return this.firecrawl.cancel(auth, id);
  }

  // Their v1 client reads errors with DELETE; v2 with GET.
  @Get(ERROR_ROUTES)
  async errors(@CurrentAuth() auth: AuthContext, @Param('version') version: string, @Param('id') id: string) {
    versionOf(version);
    return this.firecrawl.errors(auth, id);
  }

  @Delete(ERROR_ROUTES)
  async errorsV1(
    @CurrentAuth() auth: AuthContext,
    @Param('version') version: string,
    @Param('id') id: string,
  ) {
    if (versionOf(version) !== 'v1') throw new NotFoundError('Not found');
    return this.firecrawl.errors(auth, id);
  }

  /** Their endpoints this server has no counterpart for: their error shape and why, not a bare 404. */
  @Post(['search', 'extract', 'deep-research', 'llmstxt', 'agent', 'crawl/params-preview'])
  refused(@Param('version') version: string, @Req() req: FastifyRequest) {
    versionOf(version);
    const endpoint = req.url.slice(`/firecrawl/${version}/`.length).split('?')[0];
    throw new InvalidRequestError(
      `${endpoint} is not supported by this server: it takes scrape, batch scrape, crawl and map (docs/firecrawl.md)`,
    );
  }
}

function versionOf(version: string): FirecrawlVersion {
  if (version !== 'v1' && version !== 'v2')
    throw new NotFoundError('Not found: the API versions are v1 and v2');
  return version;
}

/** The absolute URL of /firecrawl/{version} as the caller reached it (TRUST_PROXY decides the forwarded host). */
function baseUrl(req: FastifyRequest, version: FirecrawlVersion): string {
  return `${req.protocol}://${req.host}/firecrawl/${version}`;
}

function count(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    throw InvalidRequestError.field(name, `must be an integer from ${min} to ${max}`);
  }
  return n;
}
