import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '@app/auth';
import { AdminGuard } from '../admin/admin.guard';
import { FIRECRAWL_PATH } from '../firecrawl/firecrawl-errors';

/**
 * Authentication before the body (docs/decisions.md, "HTTP layer"): a Fastify `onRequest` hook runs
 * the guards' own check before Fastify reads the body, so a caller without a valid key gets its 401
 * (or 429) at once and its body is neither buffered nor parsed; Node reads and drops the rest of the
 * body after the answer (so the client sees the answer), and HTTP_REQUEST_TIMEOUT_MS bounds that.
 * The guards then find the caller on the request. A route's check follows its path: /v1 routes,
 * the Firecrawl-compatible /firecrawl routes (docs/firecrawl.md) and POST /mcp take a customer key
 * (the global ApiKeyGuard skips only routes outside them, which the OpenAPI test holds for the
 * documented ones), /admin routes an admin bearer; probes, docs, the dashboard's files and GET or
 * DELETE /mcp (a 405 whoever asks) take none.
 */
export function authenticateFirst(
  app: NestFastifyApplication,
): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const customer = app.get(ApiKeyGuard);
  const admin = app.get(AdminGuard, { strict: false });
  return async (req, reply) => {
    const route = req.routeOptions.url;
    const mcpCall = route === '/mcp' && req.method === 'POST';
    if (route?.startsWith('/v1/') || route?.startsWith(FIRECRAWL_PATH) || mcpCall)
      await customer.admitRequest(req, reply);
    else if (route?.startsWith('/admin/')) await admin.identify(req);
  };
}
