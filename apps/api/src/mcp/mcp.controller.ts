import { Controller, Delete, Get, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AuthContext, CurrentAuth, SkipApiKey } from '@app/auth';
import { OPTIONS_BODY_LIMIT } from '../common/json-body';
import { McpService, methodNotAllowed } from './mcp.service';

/**
 * The MCP endpoint (Streamable HTTP, docs/mcp.md), authenticated and rate limited as /v1 is. Left
 * out of the OpenAPI document: its body is JSON-RPC, described by the MCP specification.
 */
@Controller('mcp')
@ApiExcludeController()
export class McpController {
  constructor(private readonly mcp: McpService) {}

  @Post()
  @RouteConfig({ bodyLimit: OPTIONS_BODY_LIMIT })
  async post(@CurrentAuth() auth: AuthContext, @Req() req: FastifyRequest): Promise<Response> {
    return this.mcp.handle(auth, req);
  }

  /** A 405 whoever asks, so a client's probe for a stream costs no rate-limit token. */
  @Get()
  @SkipApiKey()
  get(): Response {
    return methodNotAllowed();
  }

  @Delete()
  @SkipApiKey()
  delete(): Response {
    return methodNotAllowed();
  }
}
