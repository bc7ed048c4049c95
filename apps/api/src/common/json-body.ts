import type { FastifyInstance } from 'fastify';
import { InvalidRequestError } from '@app/common';

/**
 * Body limits sized by what a route accepts (`@RouteConfig({ bodyLimit })` raises a route's own).
 * Most bodies are a small object: a key's name, a plan, an account, a replay filter.
 */
export const BODY_LIMIT = 64 * 1024;
/** Request options (scrape, async scrape, crawl): up to 50 headers of 8 KiB, selectors, patterns. */
export const OPTIONS_BODY_LIMIT = 1024 * 1024;
/** A batch of up to 1,000,000 URLs: a million-URL batch is ~60 MB of JSON. */
export const BATCH_BODY_LIMIT = 128 * 1024 * 1024;

/**
 * JSON is the only body type, as with Express's json(): any other type is refused (415) by Fastify
 * before the route runs. Two differences from Fastify's default parser keep the old answers: an
 * empty body is `{}`, so validation names the missing fields instead of a bare "empty body" (and a
 * DELETE sent with a JSON content type but no body still works); and the body must be an object or
 * an array (a bare `"hello"` or `42` is a 400), as body-parser's strict mode had it.
 */
export function acceptJsonBodies(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body: string, done) => {
    if (body.length === 0) return done(null, {});
    void parse(req, body, (err, value: unknown) => {
      if (err) return done(err);
      if (typeof value !== 'object' || value === null)
        return done(new InvalidRequestError('The body must be a JSON object'));
      done(null, value);
    });
  });
  // A route's `config.bodyLimit` (set with Nest's @RouteConfig) becomes its Fastify body limit.
  fastify.addHook('onRoute', (route) => {
    const limit = (route.config as Record<string, unknown> | undefined)?.bodyLimit;
    if (typeof limit === 'number') route.bodyLimit = limit;
  });
}
