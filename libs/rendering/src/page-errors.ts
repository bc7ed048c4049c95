import type { PageErrorCode } from '@app/queue-contracts';

export interface PageError {
  code: PageErrorCode;
  message: string;
}

/** A page-level failure an engine reports in its capture instead of throwing. */
export class PageFailure extends Error {
  constructor(
    readonly code: PageErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PageFailure';
  }

  toError(): PageError {
    return { code: this.code, message: this.message };
  }
}

/**
 * The egress proxy could not be reached: nothing the page did, so the caller should retry
 * (RenderService throws it instead of returning a page error).
 */
export class EgressUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EgressUnavailableError';
  }
}

/** A target that answered >= 400 failed, but its status and content are still reported. */
export function statusError(status: number | null): PageError | undefined {
  if (status === null || status < 400) return undefined;
  return status < 500
    ? { code: 'HTTP_4XX', message: `the target answered ${status}` }
    : { code: 'HTTP_5XX', message: `the target answered ${status}` };
}

/** Chromium's net error name in a Playwright or Puppeteer navigation error, e.g. ERR_NAME_NOT_RESOLVED. */
export function chromiumNetError(message: string): string | undefined {
  return /net::(ERR_[A-Z0-9_]+)/.exec(message)?.[1];
}

/**
 * The page error code of a Chromium net error. ERR_TUNNEL_CONNECTION_FAILED (a CONNECT the egress
 * proxy refused) is resolved by the caller from the proxy's refusal, and
 * ERR_PROXY_CONNECTION_FAILED is not a page error at all.
 */
export function codeOfNetError(netError: string): PageErrorCode {
  if (netError === 'ERR_NAME_NOT_RESOLVED' || netError === 'ERR_NAME_RESOLUTION_FAILED') return 'DNS';
  if (/^ERR_(CERT_|SSL_|BAD_SSL_|TLS)/.test(netError)) return 'TLS';
  if (netError === 'ERR_TIMED_OUT' || netError === 'ERR_CONNECTION_TIMED_OUT') return 'TIMEOUT';
  // Ports Chromium itself refuses to dial (e.g. 6000), like addresses the policy refuses.
  if (netError === 'ERR_UNSAFE_PORT' || netError === 'ERR_ADDRESS_INVALID') return 'BLOCKED_ADDRESS';
  // block_resources matched the document itself: its URL names an image, media or font file.
  if (netError === 'ERR_BLOCKED_BY_CLIENT') return 'UNSUPPORTED_CONTENT';
  if (netError === 'ERR_RESPONSE_HEADERS_TOO_BIG') return 'TOO_LARGE';
  return 'CONNECT';
}

/**
 * The first line of an error's message: Playwright appends a call log, which has no place in a
 * page result.
 */
export const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0];

/** The browser went away under a page; the pool retries the page once on a fresh browser. */
export class BrowserGoneError extends Error {
  constructor(cause: unknown) {
    super(`the browser went away: ${firstLine(cause)}`);
    this.name = 'BrowserGoneError';
  }
}

/**
 * A kept tab's last page navigated under the next one's load (a script or refresh of its own):
 * the pool closes the tab and runs the page once more on a new one.
 */
export class StaleTabError extends Error {
  constructor(cause: unknown) {
    super(`the tab's last page navigated under this one: ${firstLine(cause)}`);
    this.name = 'StaleTabError';
  }
}
