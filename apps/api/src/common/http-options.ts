import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import { ApiEnv, ConfigError } from '@app/config';

/** How often Node checks the header and request timeouts (its default, 30 s, would add up to that). */
const TIMEOUT_CHECK_MS = 1000;

/** TRUST_PROXY as Fastify's trustProxy: a hop count, or addresses and CIDRs for proxy-addr. */
export function trustProxy(value: string | undefined): number | string[] | false {
  if (!value) return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((s) => s.trim());
}

/** Timeouts against slow clients, and whose X-Forwarded-For names the client (README, Configuration). */
export function httpServerOptions(env: ApiEnv): FastifyHttpOptions<Server> {
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS)
    throw new ConfigError(['HTTP_HEADERS_TIMEOUT_MS: must not be above HTTP_REQUEST_TIMEOUT_MS']);
  // No idle-socket timeout (Fastify's connectionTimeout): a sync scrape keeps a quiet connection
  // for as long as its page may take, which has no fixed bound (a lost worker restarts the wait).
  return {
    requestTimeout: env.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: env.HTTP_KEEPALIVE_TIMEOUT_MS,
    http: { headersTimeout: env.HTTP_HEADERS_TIMEOUT_MS, connectionsCheckingInterval: TIMEOUT_CHECK_MS },
    trustProxy: trustProxy(env.TRUST_PROXY),
    // A session's id, up to 128 characters, is a path parameter of DELETE /v1/sessions/{id}.
    // Under routerOptions: Fastify 5 deprecates router options at the top level (FSTDEP022).
    routerOptions: { maxParamLength: 128 },
  };
}
