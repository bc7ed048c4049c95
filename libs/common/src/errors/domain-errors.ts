/**
 * Errors the libs and services throw. They know nothing of HTTP: the API's exception filter maps
 * `code` to a status, and the worker decides retries from `retryable`.
 */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'quota_exceeded'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout';

export interface FieldProblem {
  field: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  /** Extra members of the error body (e.g. `errors`, `limit`). */
  readonly extra: Record<string, unknown> = {};

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidRequestError extends DomainError {
  readonly code = 'invalid_request';
  constructor(
    message: string,
    readonly errors: FieldProblem[] = [],
  ) {
    super(message);
    if (errors.length) this.extra.errors = errors;
  }

  static field(field: string, message: string): InvalidRequestError {
    return new InvalidRequestError(`${field}: ${message}`, [{ field, message }]);
  }
}

export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized';
  constructor() {
    // One message for every cause, so a caller cannot probe which keys exist.
    super('Missing or invalid API key');
  }
}

export class ForbiddenError extends DomainError {
  readonly code = 'forbidden';
}

export class NotFoundError extends DomainError {
  readonly code = 'not_found';
}

export class ConflictError extends DomainError {
  readonly code = 'conflict';
}

export class PayloadTooLargeError extends DomainError {
  readonly code = 'payload_too_large';
}

export class UnavailableError extends DomainError {
  readonly code = 'unavailable';
}

export class TimeoutError extends DomainError {
  readonly code = 'timeout';
}

export class QuotaExceededError extends DomainError {
  readonly code = 'quota_exceeded';
  constructor(limit: number, used: number, resetsAt: Date) {
    super('Monthly quota exceeded');
    Object.assign(this.extra, { limit, used, resets_at: resetsAt.toISOString() });
  }
}

export class RateLimitedError extends DomainError {
  readonly code = 'rate_limited';
  constructor(readonly retryAfterSeconds: number) {
    // The spec fixes this text.
    super('Rate limit exceeded');
  }
}

/** Worker side: the page or job fails at once, without Bull retries. */
export class NonRetryableError extends Error {
  constructor(
    message: string,
    readonly pageCode?: string,
  ) {
    super(message);
    this.name = 'NonRetryableError';
  }
}
