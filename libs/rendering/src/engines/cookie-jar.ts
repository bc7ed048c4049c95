import { Cookie, CookieJar } from 'tough-cookie';
import type { SessionCookie } from '@app/queue-contracts';

/**
 * A session's cookies for the http engine (docs/api.md, Sessions): RFC 6265 matching and storing
 * by tough-cookie, which refuses a cookie for a public suffix as browsers do. Loaded from and read
 * back into the shape Chromium reports, so one session serves both kinds of render.
 */
export class SessionCookieJar {
  private readonly jar: CookieJar;

  constructor(cookies: SessionCookie[]) {
    this.jar = CookieJar.deserializeSync({
      ...new CookieJar().serializeSync()!,
      cookies: cookies.map((c) => ({
        key: c.name,
        value: c.value,
        domain: c.domain.replace(/^\./, ''),
        hostOnly: !c.domain.startsWith('.'),
        path: c.path,
        httpOnly: c.httpOnly,
        secure: c.secure,
        ...(c.expires > 0 ? { expires: new Date(c.expires * 1000).toISOString() } : {}),
        ...(c.sameSite ? { sameSite: c.sameSite.toLowerCase() } : {}),
      })),
    });
  }

  /** The Cookie header for a request to `url`, if any cookie goes there. */
  header(url: URL): string | undefined {
    return this.jar.getCookieStringSync(url.href) || undefined;
  }

  /** Keeps an answer's Set-Cookie headers; one the rules refuse (a public suffix, a bad domain) is dropped. */
  store(url: URL, setCookie: string[] | undefined): void {
    for (const line of setCookie ?? []) {
      try {
        this.jar.setCookieSync(line, url.href);
      } catch {
        // As a browser does: a cookie it may not keep is ignored.
      }
    }
  }

  /** Every live cookie, in Chromium's shape. */
  cookies(): SessionCookie[] {
    const now = new Date();
    return (this.jar.serializeSync()?.cookies ?? []).flatMap((json) => {
      const c = Cookie.fromJSON(json);
      if (!c) return [];
      const expiry = c.expiryTime(now);
      if (expiry !== undefined && expiry <= now.getTime()) return [];
      const sameSite = { strict: 'Strict', lax: 'Lax', none: 'None' }[String(c.sameSite).toLowerCase()] as
        SessionCookie['sameSite'] | undefined;
      return [
        {
          name: c.key,
          value: c.value,
          domain: c.hostOnly ? c.domain! : `.${c.domain}`,
          path: c.path ?? '/',
          expires: expiry === undefined || !Number.isFinite(expiry) ? -1 : Math.floor(expiry / 1000),
          httpOnly: c.httpOnly,
          secure: c.secure,
          ...(sameSite ? { sameSite } : {}),
        },
      ];
    });
  }
}
