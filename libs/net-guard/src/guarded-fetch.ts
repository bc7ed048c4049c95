import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { AddressPolicy } from './address-policy';
import { BlockedAddressError, DnsError, FetchFailedError } from './errors';
import { createGuardedAgents, type GuardedAgents } from './guarded-agent';
import type { HostResolver } from './resolve-host';
import { parseTargetUrl } from './url-policy';

export interface GuardedFetchOptions {
  policy: AddressPolicy;
  resolver?: HostResolver;
  method?: string;
  /** Sent as given and never logged (customer headers are secrets). */
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** For the whole exchange, redirects and body included. Default 30000. */
  timeoutMs?: number;
  /** Cap on the (decoded) body of each answer. Default 10 MB, the page cap. */
  maxBytes?: number;
  /** false (default): a 3xx is the answer; true: up to 20 hops; a number: up to that many. */
  followRedirects?: boolean | number;
  ca?: string | Buffer | Array<string | Buffer>;
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

type Exchange = Pick<GuardedResponse, 'status' | 'headers' | 'body' | 'remoteAddress'>;

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

function exchange(
  attempt: Attempt,
  agents: GuardedAgents,
  signal: AbortSignal,
  maxBytes: number,
): Promise<Exchange> {
  const { url, method, headers, body } = attempt;
  let abort: (() => void) | undefined;
  return new Promise<Exchange>((resolve, reject) => {
    const tooLarge = () => new FetchFailedError('TOO_LARGE', `the answer exceeds ${maxBytes} bytes`);
    const client = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? agents.https : agents.http;
    const req = client.request(url, { method, headers, agent });
    const fail = (err: Error) => {
      req.destroy();
      reject(err);
    };
    // Rejecting here too: a stalled body read does not always surface a destroy as a stream error.
    abort = () => fail(new Error('aborted'));
    signal.addEventListener('abort', abort, { once: true });
    req.on('error', fail);
    req.on('response', (res) => {
      const remoteAddress = res.socket.remoteAddress;
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
  const redirects: string[] = [];
  const agents = createGuardedAgents({ policy, resolver, ca });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    for (;;) {
      const answer = await exchange(attempt, agents, controller.signal, maxBytes);
      const next = redirects.length < maxRedirects ? redirected(attempt, answer) : undefined;
      if (!next) return { ...answer, finalUrl: attempt.url.href, redirects };
      redirects.push(attempt.url.href);
      attempt = next;
    }
  } catch (err) {
    throw failure(err, controller.signal, timeoutMs);
  } finally {
    clearTimeout(timer);
    agents.http.destroy();
    agents.https.destroy();
  }
}
