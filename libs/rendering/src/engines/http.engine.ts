import {
  BlockedAddressError,
  DnsError,
  FetchFailedError,
  createGuardedAgents,
  guardedFetch,
  type AddressPolicy,
  type GuardedAgents,
  type HostResolver,
} from '@app/net-guard';
import { MAX_HTML_BYTES } from '@app/queue-contracts';
import { contentKind, isPdf, mayBePdf, mediaType, unsupportedReason } from '../content/content-kind';
import { parseDocument } from '../content/html-document';
import { remaining } from '../deadline';
import { ACCEPT_LANGUAGE, browserProfile } from './browser-profile';
import { SessionCookieJar } from './cookie-jar';
import type { Capture, EngineRequest, RenderEngine } from './engine';

/** As many as Chromium follows before ERR_TOO_MANY_REDIRECTS. */
const MAX_REDIRECTS = 20;

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

function charsetOf(contentType: string | undefined): string | undefined {
  return /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
}

/** The charset a document declares in its first bytes (<meta charset> or its http-equiv form). */
function declaredCharset(body: Buffer): string | undefined {
  const { head } = parseDocument(body.subarray(0, 2048).toString('latin1'));
  const meta = head?.querySelector('meta[charset]')?.getAttribute('charset');
  if (meta) return meta.trim();
  return charsetOf(
    head?.querySelector('meta[http-equiv="content-type" i]')?.getAttribute('content') ?? undefined,
  );
}

/** The body as text: the header's charset, else the document's own declaration, else UTF-8. */
function decode(body: Buffer, contentType: string | undefined, html: boolean): string {
  const label = charsetOf(contentType) ?? (html ? declaredCharset(body) : undefined) ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/**
 * Plain HTTP through net-guard's guarded fetch: every hop (redirects included) connects only to
 * addresses the policy allows. No JavaScript runs, so `render: auto` starts here and moves to a
 * browser only when the page needs one. A session is a cookie jar here: its cookies go with each
 * hop, and what the hops set is kept (its localStorage is left as it was).
 */
export class HttpEngine implements RenderEngine {
  readonly name = 'http' as const;
  /** Kept-alive: a site's pages come in runs, and a connect (and TLS handshake) costs more than a request. */
  private readonly agents: GuardedAgents;

  /**
   * `ca`: trusted CAs (withExtraCas) for a page through an upstream proxy, whose connections are
   * its own: the https proxy and the target inside the tunnel. The pooled agents keep Node's store,
   * since a `ca` there would key every pooled socket by all of it.
   */
  constructor(
    private readonly net: { policy: AddressPolicy; resolver?: HostResolver; ca?: string[] },
    /** PDF_MAX_BYTES: a PDF is read this far, anything else MAX_HTML_BYTES. */
    private readonly pdfMaxBytes = MAX_HTML_BYTES,
  ) {
    this.agents = createGuardedAgents({ policy: net.policy, resolver: net.resolver, keepAlive: true });
  }

  async capture({ url, options, deadline, session, proxy }: EngineRequest): Promise<Capture> {
    const failed = (code: NonNullable<Capture['error']>['code'], message: string): Capture => ({
      engine: this.name,
      finalUrl: null,
      status: null,
      error: { code, message },
    });
    const defaults = {
      'user-agent': browserProfile(options.mobile).userAgent,
      accept: ACCEPT,
      'accept-language': ACCEPT_LANGUAGE,
    };
    const jar = session && new SessionCookieJar(session.state.cookies);
    let response;
    try {
      response = await guardedFetch(url, {
        policy: this.net.policy,
        resolver: this.net.resolver,
        agents: this.agents,
        headers: defaults,
        // The caller's, to the target's origin only: not to where a redirect leads elsewhere.
        originHeaders: options.headers,
        timeoutMs: Math.max(1, remaining(deadline)),
        maxBytes: (answer) => (mayBePdf(answer['content-type']) ? this.pdfMaxBytes : MAX_HTML_BYTES),
        followRedirects: MAX_REDIRECTS,
        cookies: jar,
        upstream: proxy,
        ca: this.net.ca,
      });
    } catch (err) {
      if (err instanceof BlockedAddressError) return failed('BLOCKED_ADDRESS', err.message);
      if (err instanceof DnsError) return failed('DNS', err.message);
      if (err instanceof FetchFailedError) return failed(err.pageCode, err.message);
      throw err;
    } finally {
      // What the hops that answered set is kept, as a browser keeps it after a failed load.
      if (session && jar) session.state = { ...session.state, cookies: jar.cookies() };
    }
    const { status, headers, finalUrl } = response;
    const answered = { engine: this.name, finalUrl, status };
    if (status >= 300 && status < 400 && headers.location) {
      return { ...answered, error: { code: 'CONNECT', message: `more than ${MAX_REDIRECTS} redirects` } };
    }
    const contentType = headers['content-type'];
    const disposition = headers['content-disposition'];
    let kind = contentKind(contentType, disposition);
    // A PDF served as a generic binary or without a type is known by its signature.
    if ((kind === 'unsupported' || mediaType(contentType) === '') && isPdf(response.body)) kind = 'pdf';
    if (kind === 'pdf') return { ...answered, pdf: response.body, kind };
    if (kind === 'unsupported') {
      return {
        ...answered,
        error: { code: 'UNSUPPORTED_CONTENT', message: unsupportedReason(contentType, disposition) },
      };
    }
    return { ...answered, body: decode(response.body, contentType, kind === 'html'), kind };
  }

  async close(): Promise<void> {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
