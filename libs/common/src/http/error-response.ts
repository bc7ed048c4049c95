import { HttpException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError, ErrorCode, RateLimitedError, UnauthorizedError } from '../errors/domain-errors';
import { isBackingServiceOutage } from '../errors/outage';

// Every non-2xx body is {detail, code, ...}; each code has one status (docs/api.md, Errors).
const STATUS: Record<ErrorCode | 'internal', number> = {
  invalid_request: 400,
  unauthorized: 401,
  quota_exceeded: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  timeout: 504,
};

const OUTAGE_RETRY_AFTER_SECONDS = 5;

const CODE_BY_STATUS: Record<number, ErrorCode> = Object.fromEntries(
  Object.entries(STATUS).map(([code, status]) => [status, code]),
) as Record<number, ErrorCode>;

export interface ErrorResponse {
  status: number;
  body: { detail: string; code: string; [extra: string]: unknown };
  headers: Record<string, string>;
  /** Set for unexpected errors: log it with the error id, never send it. */
  internal?: unknown;
}

/**
 * Nest's HTTP exceptions, and Fastify's errors about the request (body too large or not JSON, a
 * content type it does not parse), which Nest wraps in one before the filter sees them.
 */
function httpError(status: number, detail: string, bodyLimit?: number): ErrorResponse {
  if (status === 413) {
    const limit = bodyLimit
      ? `: at most ${bodyLimit >= 1024 * 1024 ? `${Math.floor(bodyLimit / 1024 / 1024)} MB` : `${Math.floor(bodyLimit / 1024)} KB`}`
      : '';
    return {
      status,
      body: { detail: `Request body is too large${limit}`, code: 'payload_too_large' },
      headers: {},
    };
  }
  if (status === 415) detail = 'Unsupported Media Type: send JSON with Content-Type: application/json';
  const code = CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'invalid_request');
  // Each code has one status: a 4xx outside the list (Fastify's 415 for another
  // content type, 414 for a path parameter over its length) is the client's bad request, 400.
  return { status: STATUS[code], body: { detail, code }, headers: {} };
}

/** `bodyLimit`: the body limit of the request's route, in bytes, which a 413 names. */
export function toErrorResponse(exception: unknown, bodyLimit?: number): ErrorResponse {
  if (exception instanceof DomainError) {
    const headers: Record<string, string> = {};
    if (exception instanceof UnauthorizedError) headers['www-authenticate'] = 'Bearer';
    if (exception instanceof RateLimitedError) headers['retry-after'] = String(exception.retryAfterSeconds);
    return {
      status: STATUS[exception.code],
      body: { detail: exception.message, code: exception.code, ...exception.extra },
      headers,
    };
  }
  if (exception instanceof HttpException) {
    const response = exception.getResponse();
    const message =
      typeof response === 'object' && response !== null && 'message' in response
        ? response.message
        : exception.message;
    const detail = Array.isArray(message) ? message.join('; ') : String(message);
    return httpError(exception.getStatus(), detail, bodyLimit);
  }
  if (isBackingServiceOutage(exception)) {
    return {
      status: 503,
      body: {
        detail: 'A backing service (database or queue) is unavailable; retry shortly',
        code: 'unavailable',
      },
      headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) },
      internal: exception,
    };
  }
  const errorId = randomUUID();
  return {
    status: 500,
    body: { detail: 'Internal error; quote error_id when reporting it', code: 'internal', error_id: errorId },
    headers: {},
    internal: exception,
  };
}
