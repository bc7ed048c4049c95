import type { FastifyReply, FastifyRequest } from 'fastify';
import { THEIR_FIELD_NAMES } from './firecrawl-request';
import { toErrorBody } from './firecrawl-response';

export const FIRECRAWL_PATH = '/firecrawl/';

/**
 * Fastify `onSend` hook: an error answered under /firecrawl (by our error filter, the authentication
 * hook or Fastify itself, unknown routes included) leaves in their shape, `{success: false, error}`,
 * with our field names turned into theirs. Our own routes' bodies are untouched.
 */
export async function firecrawlErrorBodies(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (reply.statusCode < 400 || !req.url.startsWith(FIRECRAWL_PATH) || typeof payload !== 'string') {
    return payload;
  }
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return payload;
  }
  const ours = body as { detail?: unknown; code?: unknown };
  // A failed scrape's answer is theirs already.
  if (typeof ours.detail !== 'string' || typeof ours.code !== 'string') return payload;
  return JSON.stringify(toErrorBody(ours as { detail: string; code: string }, THEIR_FIELD_NAMES));
}
