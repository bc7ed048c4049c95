import http from 'node:http';
import https from 'node:https';
import type { Duplex, Readable } from 'node:stream';
import { isIP } from 'node:net';
import tls from 'node:tls';
import zlib from 'node:zlib';
import type { AddressPolicy } from './address-policy';
import { BlockedAddressError, DnsError, FetchFailedError } from './errors';
import {
  createGuardedAgents,
  staleSocket,
  type GuardedAgents,
  type PinnedRequestOptions,
} from './guarded-agent';
import { resolveAllowed, type HostResolver } from './resolve-host';
import { trusting } from './trust';
import { dialUpstream, ProxyError, type UpstreamProxy } from './upstream-proxy';
import { parseTargetUrl } from './url-policy';

export interface GuardedFetchOptions {
  policy: AddressPolicy;
  resolver?: HostResolver;
  method?: string;
  /** Sent as given and never logged (customer headers are secrets). */
  headers?: Record<string, string>;
  /**
   * Sent, over `headers` of the same name in any case, only on hops to the first URL's origin
   * (scheme, host and port): a caller's headers never follow a redirect to another origin.
   */
  originHeaders?: Record<string, string>;
  body?: string | Buffer;
  /**
   * A cookie jar (a caller's session): its cookies go with each hop they match, under the
   * caller's own Cookie header if any, and each answer's Set-Cookie is kept, redirects' included.
   */
  cookies?: HopCookies;
  /** For the whole exchange, redirects and body included. Default 30000. */
  timeoutMs?: number;
  /**
   * Cap on the (decoded) body of each answer. Default 10 MB, the page cap. A function picks it by
   * the answer's headers (the http engine reads a PDF further than HTML).
   */
  maxBytes?: number | ((headers: http.IncomingHttpHeaders) => number);
  /** false (default): a 3xx is the answer; true: up to 20 hops; a number: up to that many. */
  followRedirects?: boolean | number;
  /** Trusted CAs, for the target and for an https `upstream`, instead of the system store (tests). */
  ca?: string | Buffer | Array<string | Buffer>;
  /**
   * Keep-alive agents (createGuardedAgents with keepAlive) whose connections later fetches reuse;
   * they vet the addresses again with their own policy. Default: agents for this fetch alone.
   */
  agents?: GuardedAgents;
  /**
   * Each hop goes through this proxy on a connection of its own (never a pooled one of `agents`);
   * targets are vetted all the same, and so is the proxy's address. Its failures are PROXY.
   */
  upstream?: UpstreamProxy;
}

export interface GuardedResponse {
  status: number;
  /** Without content-encoding and content-length once the body was decoded. */
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  finalUrl: string;
  /** The URLs that answered with a redirect that was followed, in order. */
  redirects: string[];
  /** The peer address of the final answer: one that passed the policy. */
  remoteAddress: string | undefined;
}

export interface HopCookies {
  header(url: URL): string | undefined;
  store(url: URL, setCookie: string[] | undefined): void;
}

type Exchange = Pick<GuardedResponse, 'status' | 'headers' | 'body' | 'remoteAddress'>;

// RFC 9110 9.2.2: these may be sent again when a kept-alive socket turns out to be closed.
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

interface Attempt {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Dropped when a redirect leaves the origin, as fetch does: they belong to the first site only.
const ORIGIN_BOUND = ['authorization', 'cookie', 'proxy-authorization'];
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** A kept-alive socket the server had closed: the request never reached it. */
class StaleSocketError extends Error {}

/** Until the signal aborts: a lookup that hangs past the deadline is left behind. */
async function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  let abort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    abort = () => reject(new Error('aborted'));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', abort!);
  }
}

/** A connection to the vetted target through the upstream proxy, TLS inside the tunnel for https. */
async function tunnelTo(url: URL, pinned: string[], options: GuardedFetchOptions): Promise<Duplex> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let socket;
  try {
    socket = await dialUpstream(options.upstream!, { host: pinned[0], port }, options);
  } catch (err) {
    throw err instanceof ProxyError ? new FetchFailedError('PROXY', err.message) : err;
  }
  if (url.protocol !== 'https:') return socket;
  const servername = url.hostname.replace(/^\[|\]$/g, '');
  return tls.connect({
    socket,
    servername: isIP(servername) ? undefined : servername,
    ...trusting(options.ca),
  });
}

function exchange(
  attempt: Attempt,
  agents: GuardedAgents,
  pinned: string[],
  signal: AbortSignal,
  capOf: NonNullable<GuardedFetchOptions['maxBytes']>,
  tunnel?: Duplex,
): Promise<Exchange> {
  const { url, method, headers, body } = attempt;
  let abort: (() => void) | undefined;
  return new Promise<Exchange>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? agents.https : agents.http;
    const options: PinnedRequestOptions = tunnel
      ? { method, headers, createConnection: () => tunnel }
      : { method, headers, agent, pinned };
    const req = client.request(url, options);
    // A tunnel comes paused (its CONNECT answer was read off it): flowing once the parser listens.
    if (tunnel) req.once('socket', (socket) => socket.resume());
    const fail = (err: Error) => {
      req.destroy();
      reject(err);
    };
    // Rejecting here too: a stalled body read does not always surface a destroy as a stream error.
    abort = () => fail(new Error('aborted'));
    signal.addEventListener('abort', abort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) =>
      fail(staleSocket(req, err) ? new StaleSocketError(err.message, { cause: err }) : err),
    );
    req.on('response', (res) => {
      const remoteAddress = res.socket.remoteAddress;
      const maxBytes = typeof capOf === 'function' ? capOf(res.headers) : capOf;
      const tooLarge = () => new FetchFailedError('TOO_LARGE', `the answer exceeds ${maxBytes} bytes`);
      if (Number(res.headers['content-length']) > maxBytes) return fail(tooLarge());
      const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
      const decoder = DECODERS[encoding]?.();
      const stream: Readable = decoder ? (res.pipe(decoder) as unknown as Readable) : res;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('error', fail);
      decoder?.on('error', (err: Error) =>
        fail(new FetchFailedError('CONNECT', `undecodable ${encoding} body: ${err.message}`)),
      );
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) fail(tooLarge());
        else chunks.push(chunk);
      });
      stream.on('end', () => {
        const answerHeaders = { ...res.headers };
        if (decoder) {
          delete answerHeaders['content-encoding'];
          delete answerHeaders['content-length'];
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: answerHeaders,
          body: Buffer.concat(chunks),
          remoteAddress,
        });
      });
    });
    req.end(body);
  }).finally(() => abort && signal.removeEventListener('abort', abort));
}

/** The next request after a redirect, or undefined when the answer is final. */
function redirected(attempt: Attempt, answer: Exchange): Attempt | undefined {
  const location = answer.headers.location;
  if (!REDIRECTS.has(answer.status) || !location) return undefined;
  let url: URL;
  try {
    // The same rules as a caller's URL: http(s) only, no credentials; else the 3xx is the answer.
    url = parseTargetUrl(new URL(location, attempt.url).href, { kind: 'target' });
  } catch {
    return undefined;
  }
  const headers = { ...attempt.headers };
  let { method, body } = attempt;
  // RFC 9110 15.4: 303 turns anything but HEAD into GET; 301/302 do so for POST, as browsers do.
  if (
    (answer.status === 303 && method !== 'HEAD') ||
    ([301, 302].includes(answer.status) && method === 'POST')
  ) {
    method = 'GET';
    body = undefined;
    for (const name of Object.keys(headers)) {
      if (/^content-/i.test(name)) delete headers[name];
    }
  }
  if (url.origin !== attempt.url.origin) {
    for (const name of Object.keys(headers)) {
      if (ORIGIN_BOUND.includes(name.toLowerCase())) delete headers[name];
    }
  }
  return { url, method, headers, body };
}

/** `extra` over `base`, replacing a name of any case. */
export function withHeaders(
  base: Record<string, string>,
  extra: Record<string, string>,
): Record<string, string> {
  const names = new Set(Object.keys(extra).map((name) => name.toLowerCase()));
  const kept = Object.entries(base).filter(([name]) => !names.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), ...extra };
}

function failure(err: unknown, signal: AbortSignal, timeoutMs: number): Error {
  if (err instanceof BlockedAddressError || err instanceof DnsError || err instanceof FetchFailedError)
    return err;
  if (signal.aborted) return new FetchFailedError('TIMEOUT', `no complete answer within ${timeoutMs} ms`);
  const e = err as NodeJS.ErrnoException;
  const tls = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|EPROTO/.test(e.code ?? '');
  return new FetchFailedError(tls ? 'TLS' : 'CONNECT', e.code ? `${e.code}: ${e.message}` : e.message);
}

/**
 * One HTTP(S) exchange for Node-side clients (the http engine, the webhook sender) through
 * guarded agents: every connection, each redirect hop included, goes only to a vetted address.
 * Throws BlockedAddressError, DnsError or FetchFailedError (InvalidRequestError for a URL that is
 * not http(s)); any status is an answer.
 */
export async function guardedFetch(
  url: string | URL,
  options: GuardedFetchOptions,
): Promise<GuardedResponse> {
  const {
    policy,
    resolver,
    timeoutMs = 30_000,
    maxBytes = 10 * 1024 * 1024,
    followRedirects = false,
    ca,
  } = options;
  const maxRedirects = followRedirects === true ? 20 : followRedirects === false ? 0 : followRedirects;
  // Callers parse their URLs; this keeps a stray scheme from reaching http.request.
  const first = parseTargetUrl(url instanceof URL ? url.href : url, { kind: 'target' });
  const headers = { ...options.headers };
  // Bodies are decoded here, so ask for what can be decoded unless the caller chose.
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'accept-encoding')) {
    headers['accept-encoding'] = 'gzip, deflate, br';
  }
  let attempt: Attempt = { url: first, method: options.method ?? 'GET', headers, body: options.body };
  const sent = ({ url, headers }: Attempt) => {
    const cookie = options.cookies?.header(url);
    const own = cookie ? withHeaders(headers, { cookie }) : headers;
    return options.originHeaders && url.origin === first.origin
      ? withHeaders(own, options.originHeaders)
      : own;
  };
  const redirects: string[] = [];
  const agents = options.agents ?? createGuardedAgents({ policy, resolver, ca });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    for (;;) {
      // Vetted here, before a socket is picked: the pool keys sockets by these addresses too.
      const pinned = await untilAborted(
        resolveAllowed(attempt.url.hostname, policy, resolver),
        controller.signal,
      );
      let answer: Exchange | undefined;
      // Each stale socket is closed as it fails, so this ends (and the deadline bounds it anyway).
      while (!answer) {
        const dialing = options.upstream ? tunnelTo(attempt.url, pinned, options) : undefined;
        // A tunnel that opens after the deadline is closed, not left behind.
        dialing?.then(
          (socket) => controller.signal.aborted && socket.destroy(),
          () => undefined,
        );
        const tunnel = dialing && (await untilAborted(dialing, controller.signal));
        answer = await exchange(
          { ...attempt, headers: sent(attempt) },
          agents,
          pinned,
          controller.signal,
          maxBytes,
          tunnel,
        ).catch((err: Error) => {
          if (!(err instanceof StaleSocketError)) throw err;
          if (IDEMPOTENT.has(attempt.method.toUpperCase())) return undefined;
          throw err.cause;
        });
      }
      options.cookies?.store(attempt.url, answer.headers['set-cookie']);
      const next = redirects.length < maxRedirects ? redirected(attempt, answer) : undefined;
      if (!next) return { ...answer, finalUrl: attempt.url.href, redirects };
      redirects.push(attempt.url.href);
      attempt = next;
    }
  } catch (err) {
    throw failure(err, controller.signal, timeoutMs);
  } finally {
    clearTimeout(timer);
    if (!options.agents) {
      agents.http.destroy();
      agents.https.destroy();
    }
  }
}
