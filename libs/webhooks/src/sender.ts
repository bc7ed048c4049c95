import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import https from 'node:https';
import { SecureContext, createSecureContext } from 'node:tls';
import { SharedEnv } from '@app/config';
import {
  AddressPolicy,
  BlockedAddressError,
  DnsError,
  GuardedAgents,
  HOST_RESOLVER,
  HostResolver,
  createGuardedAgents,
  parseTargetUrl,
  staleSocket,
  withExtraCas,
} from '@app/net-guard';
import { signatureHeader } from './signature';

/** How much of a receiver's answer is read: enough to debug from the log, never a memory risk. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** What the log keeps of it (the column's size), and of an error message. */
const LOG_CHARS = 1024;

export interface WebhookMessage {
  url: string;
  /** webhook-id: the delivery's id, the same on every attempt and replay. */
  msgId: string;
  jobId: string;
  body: string;
  /** The secrets that sign, current first; two during a rotation overlap. */
  secrets: readonly string[];
}

/** delivered: a 2xx; gone: 410, the receiver wants no more; retry: anything else. */
export type AttemptVerdict = 'delivered' | 'retry' | 'gone';

/** One HTTP try as the delivery log records it. */
export interface AttemptOutcome {
  verdict: AttemptVerdict;
  startedAt: Date;
  /** What was sent: signatures, never a secret. */
  requestHeaders: Record<string, string>;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

/** The receiver sent no status in time. */
class NoAnswerError extends Error {}

interface Answer {
  status: number;
  body: Buffer;
}

export function verdictOf(status: number): AttemptVerdict {
  if (status >= 200 && status < 300) return 'delivered';
  return status === 410 ? 'gone' : 'retry';
}

function statusError(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status === 410) return 'HTTP 410: the receiver asked for no more deliveries';
  if (status >= 300 && status < 400) return `HTTP ${status}: redirects are not followed`;
  return `HTTP ${status}`;
}

function failureText(err: unknown, timeoutMs: number): string {
  if (err instanceof BlockedAddressError) return `BLOCKED_ADDRESS: ${err.message}`;
  if (err instanceof DnsError) return `DNS: ${err.message}`;
  if (err instanceof NoAnswerError) return `TIMEOUT: no answer within ${timeoutMs} ms`;
  const e = err as NodeJS.ErrnoException;
  const kind = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|EPROTO/.test(e.code ?? '') ? 'TLS' : 'CONNECT';
  return `${kind}: ${e.code ? `${e.code}: ` : ''}${e.message}`;
}

/**
 * Trust for receivers: Node's default store, plus NODE_EXTRA_CA_CERTS read here (withExtraCas).
 * Built once and passed per request: given as `ca` instead, the agent would rebuild it for every
 * connection and key its pool by all of it.
 */
function trustedContext(extraCaFile: string | undefined): SecureContext | undefined {
  const ca = withExtraCas(extraCaFile);
  return ca ? createSecureContext({ ca }) : undefined;
}

/**
 * One webhook attempt: a signed POST over https through guarded agents (every connection goes to
 * a vetted address only), no redirect followed, the answer read up to a cap, all within
 * WEBHOOK_TIMEOUT_MS. Never throws: every failure is an outcome to log.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly agents: GuardedAgents;
  private readonly secureContext: SecureContext | undefined;
  private readonly timeoutMs: number;

  constructor(policy: AddressPolicy, @Inject(HOST_RESOLVER) resolver: HostResolver, env: SharedEnv) {
    // Keep-alive: a receiver usually gets many deliveries, and a TLS handshake each costs more than the POST.
    this.agents = createGuardedAgents({ policy, resolver, keepAlive: true });
    this.secureContext = trustedContext(env.NODE_EXTRA_CA_CERTS);
    this.timeoutMs = env.WEBHOOK_TIMEOUT_MS;
  }

  async send(message: WebhookMessage): Promise<AttemptOutcome> {
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signatureHeader(message.secrets, message.msgId, timestamp, message.body);
    const requestHeaders = {
      'Content-Type': 'application/json',
      'User-Agent': 'scraper-webhooks/1',
      'X-Service-Job-Id': message.jobId,
      'webhook-id': message.msgId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
      'X-Service-Signature': signature,
    };
    const startedAt = new Date();
    const outcome = (
      fields: Omit<AttemptOutcome, 'startedAt' | 'requestHeaders' | 'latencyMs'>,
    ): AttemptOutcome => ({
      ...fields,
      startedAt,
      requestHeaders,
      latencyMs: Date.now() - startedAt.getTime(),
    });
    try {
      // https only, checked again at send time: the URL was validated when the job was created.
      const url = parseTargetUrl(message.url, { kind: 'webhook' });
      const answer = await this.post(url, requestHeaders, message.body);
      const excerpt = answer.body.toString('utf8').slice(0, LOG_CHARS);
      return outcome({
        verdict: verdictOf(answer.status),
        statusCode: answer.status,
        error: statusError(answer.status),
        responseExcerpt: excerpt || null,
      });
    } catch (err) {
      return outcome({
        verdict: 'retry',
        statusCode: null,
        error: failureText(err, this.timeoutMs).slice(0, LOG_CHARS),
        responseExcerpt: null,
      });
    }
  }

  onModuleDestroy(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async post(url: URL, headers: Record<string, string>, body: string): Promise<Answer> {
    const deadline = Date.now() + this.timeoutMs;
    try {
      return await this.exchange(url, headers, body, deadline);
    } catch (err) {
      // A kept-alive socket the receiver closed meanwhile fails before any answer: one fresh try.
      if ((err as { staleSocket?: boolean }).staleSocket && Date.now() < deadline) {
        return this.exchange(url, headers, body, deadline);
      }
      throw err;
    }
  }

  private exchange(
    url: URL,
    headers: Record<string, string>,
    body: string,
    deadline: number,
  ): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      const req = https.request(url, {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        agent: this.agents.https,
        ...(this.secureContext ? { secureContext: this.secureContext } : {}),
      });
      let answer: Answer | undefined;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        clearTimeout(timer);
        if (answer) resolve({ ...answer, body: Buffer.concat(chunks) });
      };
      // Once a status has arrived it is the verdict; the time limit then only ends the reading.
      const timer = setTimeout(
        () => {
          if (answer) {
            finish();
            req.destroy();
          } else req.destroy(new NoAnswerError());
        },
        Math.max(0, deadline - Date.now()),
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (answer) return finish();
        reject(Object.assign(err, { staleSocket: staleSocket(req, err) }));
      });
      req.on('response', (res) => {
        answer = { status: res.statusCode ?? 0, body: Buffer.alloc(0) };
        res.on('data', (chunk: Buffer) => {
          if (size >= MAX_RESPONSE_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) {
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('error', finish);
      });
      req.end(body);
    });
  }
}
