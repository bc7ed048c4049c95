import { DomainError } from '@app/common';

/**
 * A host resolved to (or is) an address the policy refuses. At the API it is a 400
 * (invalid_request); on a page it is the error code BLOCKED_ADDRESS.
 */
export class BlockedAddressError extends DomainError {
  readonly code = 'invalid_request';
  readonly pageCode = 'BLOCKED_ADDRESS';
}

/** A host name did not resolve. At the API a 400; on a page the error code DNS. */
export class DnsError extends DomainError {
  readonly code = 'invalid_request';
  readonly pageCode = 'DNS';
}

export type FetchFailure = 'CONNECT' | 'TLS' | 'TIMEOUT' | 'TOO_LARGE' | 'PROXY';

/** guardedFetch could not get a whole answer; `pageCode` is the page error code it stands for. */
export class FetchFailedError extends Error {
  constructor(
    readonly pageCode: FetchFailure,
    message: string,
  ) {
    super(message);
    this.name = 'FetchFailedError';
  }
}
