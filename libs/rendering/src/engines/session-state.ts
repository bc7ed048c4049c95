import type { SessionCookie, SessionState } from '@app/queue-contracts';
import { withDeadline } from '../deadline';
import type { PageMonitor } from './page-monitor';

/**
 * A session's cookies and localStorage (docs/api.md, Sessions) into and out of a browser tab, over
 * the tab's own CDP session, so both browser engines do it alike. The tab's context is the
 * session's alone and fresh (nothing of another page is in it), so what is read after the page is
 * everything the session holds.
 */

/** The request's session: its state before the page; `state` is replaced by what the page left. */
export interface SessionJar {
  state: SessionState;
}

/** Chromium's cookie as Network.getAllCookies reports it (the fields kept). */
type CdpCookie = SessionCookie & { session: boolean };

/**
 * A host-only cookie is set through a URL of its host: a `domain` given to Chromium would make it a
 * domain cookie (sent to subdomains too).
 */
function cookieParam(c: SessionCookie): Record<string, unknown> {
  const where = c.domain.startsWith('.')
    ? { domain: c.domain }
    : { url: `${c.secure ? 'https' : 'http'}://${c.domain}${c.path}` };
  return {
    name: c.name,
    value: c.value,
    ...where,
    path: c.path,
    secure: c.secure,
    httpOnly: c.httpOnly,
    // Chromium refuses SameSite=None without Secure (the http engine's jar keeps it): its default then.
    ...(c.sameSite && (c.sameSite !== 'None' || c.secure) ? { sameSite: c.sameSite } : {}),
    ...(c.expires > 0 ? { expires: c.expires } : {}),
  };
}

/**
 * Installs the localStorage of each origin the session holds at the start of that origin's
 * documents, before the page's scripts run. Only into an empty storage: the tab's context starts
 * empty, so the first document of an origin gets it, and a later one of the same page keeps what
 * the page has written since.
 */
const storageScript = (origins: SessionState['origins']) => `(() => {
  const saved = ${JSON.stringify(Object.fromEntries(origins.map((o) => [o.origin, o.localStorage])))};
  try {
    const items = saved[location.origin];
    if (!items || localStorage.length > 0) return;
    for (const [key, value] of items) localStorage.setItem(key, value);
  } catch {}
})();`;

/** Puts the session's cookies into the tab's context and its storage into the documents to come. */
export async function restoreSession(monitor: PageMonitor, { state }: SessionJar): Promise<void> {
  if (state.cookies.length) {
    const cookies = state.cookies.map(cookieParam);
    // One cookie Chromium will not take fails the whole call: then each is set alone, and one it
    // refuses is left out (as a browser drops it), so the session goes on.
    await monitor.cdp.send('Network.setCookies', { cookies }).catch(async () => {
      for (const cookie of cookies) {
        await monitor.cdp.send('Network.setCookies', { cookies: [cookie] }).catch(() => undefined);
      }
    });
  }
  if (state.origins.length) {
    await monitor.cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: storageScript(state.origins) });
  }
}

/**
 * What the page left: every cookie of the tab's context, session cookies included, and the
 * localStorage of the document it ended on, over what the session held for that origin (the other
 * origins' are kept as they were).
 */
export async function readSession(monitor: PageMonitor, jar: SessionJar): Promise<SessionState> {
  const { cookies } = (await monitor.cdp.send('Network.getAllCookies')) as { cookies: CdpCookie[] };
  const read = (await monitor.evaluate(
    `(() => { try { return [location.origin, Object.entries(localStorage)]; } catch { return null; } })()`,
  )) as [string, [string, string][]] | null;
  let origins = jar.state.origins;
  if (read && read[0] !== 'null') {
    const [origin, localStorage] = read;
    origins = origins.filter((o) => o.origin !== origin);
    if (localStorage.length) origins = [...origins, { origin, localStorage }];
  }
  return {
    cookies: cookies.map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      expires: c.session ? -1 : c.expires,
      httpOnly: c.httpOnly,
      secure: c.secure,
      ...(c.sameSite ? { sameSite: c.sameSite } : {}),
    })),
    origins,
  };
}

/** Reading what a page left; a tab that does not answer in this time leaves the session as it was. */
const READ_MS = 2000;

/** The jar takes what the page left, unless the tab cannot say (hung, or gone): then it keeps its state. */
export async function keepSession(monitor: PageMonitor, jar: SessionJar): Promise<void> {
  const read = readSession(monitor, jar);
  read.catch(() => undefined);
  try {
    jar.state = await withDeadline(read, READ_MS, 'reading the session');
  } catch {
    // As it was: the next request starts from the state before this page.
  }
}
