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
 * Documents' responses are paused only when DocumentPdfReader is to read one (readDocuments): with
 * any pattern on, every request of the tab passes through the browser process's interceptor.
 */
export class OriginHeaderInjector {
  private current: HeadersForOrigin | undefined;
  private reading = false;
  /** The patterns Fetch holds now, as a key; '' when it is off (as on a fresh session). */
  private enabled = '';

  constructor(private readonly cdp: CdpClient) {}

  /**
   * Once per tab, with the session's other listeners. Fetch also pauses documents' responses when
   * asked to (the one Fetch.enable of the session holds both patterns): those go to `onResponse`.
   */
  listen(onResponse: (e: ResponsePaused) => Promise<void>): void {
    this.cdp.on('Fetch.requestPaused', (e: RequestPaused & ResponsePaused) => {
      if (e.responseStatusCode !== undefined || e.responseErrorReason !== undefined) void onResponse(e);
      else void this.continueRequest(e);
    });
  }

  /** Before each page: its headers, or none (a reused tab forgets the last page's); documents not paused. */
  async beginPage(next: HeadersForOrigin | undefined): Promise<void> {
    this.current = next;
    this.reading = false;
    await this.apply();
  }

  /** Documents' responses are paused from now on this page, for DocumentPdfReader. */
  async readDocuments(): Promise<void> {
    this.reading = true;
    await this.apply();
  }

  private async apply(): Promise<void> {
    const origin = this.current ? [{ urlPattern: `${escapePattern(this.current.origin)}/*` }] : [];
    const patterns = [...origin, ...(this.reading ? [DOCUMENT_RESPONSES] : [])];
    const key = patterns.length ? JSON.stringify(patterns) : '';
    if (key === this.enabled) return;
    if (patterns.length) await this.cdp.send('Fetch.enable', { patterns });
    else await this.cdp.send('Fetch.disable');
    this.enabled = key;
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
