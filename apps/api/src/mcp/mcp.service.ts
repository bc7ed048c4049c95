import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { AuthContext } from '@app/auth';
import { createMcpServer } from '@app/mcp';
import { CallerBackends } from './caller-backend';

/** The request headers the Streamable HTTP transport reads (content negotiation, protocol version). */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'];

/**
 * POST /mcp (docs/mcp.md): one MCP server and transport per request, stateless (no session id), so
 * any API replica answers any request and nothing outlives it. Answers are JSON, not an event
 * stream: a tool answers once, and a long scrape holds the request as POST /v1/scrape does.
 */
@Injectable()
export class McpService {
  constructor(private readonly backends: CallerBackends) {}

  async handle(auth: AuthContext, req: FastifyRequest): Promise<Response> {
    const server = createMcpServer(this.backends.forCaller(auth));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      // The body was parsed (and bounded) by Fastify already.
      return await transport.handleRequest(webRequest(req), { parsedBody: req.body });
    } finally {
      await server.close();
    }
  }
}

function webRequest(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(new URL(req.url, 'http://api'), { method: req.method, headers });
}

/** GET (a server-sent stream) and DELETE (a session's end) have nothing to serve without sessions. */
export function methodNotAllowed(): Response {
  const body = {
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Method not allowed: POST only (stateless server)' },
    id: null,
  };
  return new Response(JSON.stringify(body), {
    status: 405,
    headers: { allow: 'POST', 'content-type': 'application/json' },
  });
}
