import { withHeaders } from '@app/net-guard';
import type { EngineRequest } from './engine';
import { DOCUMENT_RESPONSES, type ResponsePaused } from './document-pdf';
import type { CdpClient } from './page-monitor';

interface RequestPaused {
  requestId: string;
  request: { url: string; headers: Record<string, string> };
  /** Set when the pause is at the response stage (DOCUMENT_RESPONSES). */
  responseStatusCode?: number;
  responseErrorReason?: string;
}

/** The caller's headers and the one origin they go to: the target URL's (scheme, host and port). */
export interface HeadersForOrigin {
  origin: string;
  headers: Record<string, string>;
}

export function headersForOrigin({ url, options }: Pick<EngineRequest, 'url' | 'options'>) {
  return options.headers && { origin: new URL(url).origin, headers: options.headers };
}

/** Fetch patterns' own wildcards and escape, taken literally. */
const escapePattern = (text: string) => text.replace(/[\\*?]/g, '\\$&');

/**
 * Adds the caller's headers to the tab's requests to the target's origin, and to no other: the
 * document, its redirects within the origin and same-origin subresources, never another origin's
 * resources nor a redirect's target elsewhere (Chromium does not carry headers a paused request was
 * continued with over a redirect; each hop to the origin is paused again). Not the engines'
 * extra-headers APIs, which send to every origin. Only that origin's requests are paused
 * (Fetch.enable's pattern), and only on a page with headers; the pattern changes page by page.
 * Documents' responses are paused on every page, for DocumentPdfReader.
 */
export class OriginHeaderInjector {
  private current: HeadersForOrigin | undefined;
  /** The origin whose requests Fetch pauses now, if any; null before the first page. */
  private pausing: string | undefined | null = null;

  constructor(private readonly cdp: CdpClient) {}

  /**
   * Once per tab, with the session's other listeners. Fetch also pauses every document's response
   * (the one Fetch.enable of the session holds both patterns): those go to `onResponse`.
   */
  listen(onResponse: (e: ResponsePaused) => Promise<void>): void {
    this.cdp.on('Fetch.requestPaused', (e: RequestPaused & ResponsePaused) => {
      if (e.responseStatusCode !== undefined || e.responseErrorReason !== undefined) void onResponse(e);
      else void this.continueRequest(e);
    });
  }

  /** Before each page: its headers, or none (a reused tab forgets the last page's). */
  async beginPage(next: HeadersForOrigin | undefined): Promise<void> {
    this.current = next;
    if (this.pausing !== null && next?.origin === this.pausing) return;
    const origin = next ? [{ urlPattern: `${escapePattern(next.origin)}/*` }] : [];
    await this.cdp.send('Fetch.enable', { patterns: [...origin, DOCUMENT_RESPONSES] });
    this.pausing = next?.origin;
  }

  private async continueRequest({ requestId, request }: RequestPaused): Promise<void> {
    const given = this.current;
    // The pattern only pauses the origin's requests; checked again, as the pattern is a string match.
    const send = given && new URL(request.url).origin === given.origin ? given.headers : undefined;
    const headers =
      send && Object.entries(withHeaders(request.headers, send)).map(([name, value]) => ({ name, value }));
    try {
      await this.cdp.send('Fetch.continueRequest', { requestId, ...(headers ? { headers } : {}) });
    } catch {
      // A request the page has already dropped; or headers Chromium refuses, sent without them.
      if (headers) await this.cdp.send('Fetch.continueRequest', { requestId }).catch(() => undefined);
    }
  }
}
