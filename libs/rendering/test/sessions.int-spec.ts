import { EMPTY_SESSION, SCRAPE_DEFAULTS, type ScrapeOptions } from '@app/queue-contracts';
import type { Rendering } from '@app/rendering';
import { SESSION_MARKERS } from '../../../test/fixtures/site/session-pages';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import type { SessionJar } from '../src/engines/session-state';
import { startTestRendering } from './test-rendering';

// A session's cookies and localStorage carried from one page to the next through both browser
// engines and the http engine's cookie jar, and kept out of every other page.
const BROWSERS = ['playwright', 'puppeteer'] as const;

let site: FixtureSite;
let rendering: Rendering;

beforeAll(async () => {
  site = await startFixtureSite();
  rendering = await startTestRendering();
});

afterAll(async () => {
  await rendering?.close();
  await site?.close();
});

function render(path: string, options: Partial<ScrapeOptions>, session?: SessionJar) {
  return rendering.service.render({
    url: site.origin + path,
    options: { ...SCRAPE_DEFAULTS, timeout: 20_000, ...options },
    isolationKey: 'account-sessions',
    session,
  });
}

const shown = (markdown: string | undefined) => ({
  cookies: new RegExp(`${SESSION_MARKERS.cookies}(.*)`).exec(markdown ?? '')?.[1].trim(),
  storage: new RegExp(`${SESSION_MARKERS.storage}(\\S*)`).exec(markdown ?? '')?.[1],
});

describe.each(BROWSERS)('sessions: %s', (engine) => {
  it('carries cookies (session cookies too) and localStorage to the next page of the session', async () => {
    const jar: SessionJar = { state: EMPTY_SESSION };
    const set = await render('/session/set?v=one', { engine, session_id: 's1' }, jar);
    expect(set.error).toBeUndefined();
    // render: auto takes the browser for a session.
    expect(set.metadata.engine).toBe(engine);
    const names = jar.state.cookies.map((c) => `${c.name}=${c.value}`).sort();
    expect(names).toEqual(['js=one', 'keep=one', 'sid=one']);
    expect(jar.state.cookies.find((c) => c.name === 'sid')).toMatchObject({ expires: -1, httpOnly: true });
    expect(jar.state.origins).toEqual([{ origin: site.origin, localStorage: [['token', 'one']] }]);

    const shownPage = await render('/session/show', { engine, session_id: 's1' }, jar);
    const seen = shown(shownPage.markdown);
    expect(seen.cookies?.split('; ').sort()).toEqual(['js=one', 'keep=one', 'sid=one']);
    expect(seen.storage).toBe('one');
    // Host-only cookies stay host-only.
    expect(jar.state.cookies.every((c) => c.domain === '127.0.0.1')).toBe(true);
  });

  it('shows nothing of a session to a page without one or with another', async () => {
    const jar: SessionJar = { state: EMPTY_SESSION };
    await render('/session/set?v=two', { engine, session_id: 's2' }, jar);
    expect(jar.state.cookies.length).toBeGreaterThan(0);
    const none = await render('/session/show', { engine, render: 'browser' });
    expect(shown(none.markdown)).toEqual({ cookies: 'none', storage: 'null' });
    const other = await render('/session/show', { engine, session_id: 's3' }, { state: EMPTY_SESSION });
    expect(shown(other.markdown)).toEqual({ cookies: 'none', storage: 'null' });
  });

  it('restores the cookies Chromium takes when it refuses one of them', async () => {
    const cookie = { path: '/', expires: -1, httpOnly: false, secure: false };
    const jar: SessionJar = {
      state: {
        cookies: [
          { ...cookie, name: 'good', value: '1', domain: '127.0.0.1' },
          // The __Host- prefix needs Secure: Chromium refuses this one.
          { ...cookie, name: '__Host-bad', value: '2', domain: '127.0.0.1' },
        ],
        origins: [],
      },
    };
    const page = await render('/session/show', { engine, session_id: 's5' }, jar);
    expect(shown(page.markdown).cookies).toBe('good=1');
  });

  it('keeps what a later page changed, and drops what it removed', async () => {
    const jar: SessionJar = { state: EMPTY_SESSION };
    await render('/session/set?v=old', { engine, session_id: 's4' }, jar);
    await render(
      '/session/show',
      {
        engine,
        session_id: 's4',
        actions: [
          {
            type: 'execute_javascript',
            script: "localStorage.setItem('token', 'new'); document.cookie = 'js=; path=/; max-age=0'",
          },
        ],
      },
      jar,
    );
    const names = jar.state.cookies.map((c) => `${c.name}=${c.value}`).sort();
    expect(names).toEqual(['keep=old', 'sid=old']);
    expect(jar.state.origins).toEqual([{ origin: site.origin, localStorage: [['token', 'new']] }]);
  });
});

describe('sessions: http', () => {
  it('is a cookie jar: cookies of every hop kept and sent, storage left as it was, shared with the browser', async () => {
    const storage = [{ origin: site.origin, localStorage: [['token', 'kept']] as [string, string][] }];
    const jar: SessionJar = { state: { cookies: [], origins: storage } };
    const set = await render('/session/set?v=h1', { render: 'http', session_id: 'h' }, jar);
    expect(set.metadata.engine).toBe('http');
    // No script ran: the server's cookies only.
    expect(jar.state.cookies.map((c) => `${c.name}=${c.value}`).sort()).toEqual(['keep=h1', 'sid=h1']);
    expect(jar.state.cookies.find((c) => c.name === 'sid')).toMatchObject({
      expires: -1,
      domain: '127.0.0.1',
    });
    // A redirect's cookie is kept and sent on to where it leads.
    const hop = await render('/session/hop?v=h2', { render: 'http', session_id: 'h' }, jar);
    expect(shown(hop.markdown).cookies?.split('; ').sort()).toEqual([
      'hop=h2',
      'keep=h1',
      'lax=h2',
      'sid=h1',
    ]);
    expect(jar.state.origins).toEqual(storage);
    // The same session in a browser has the jar's cookies.
    const browser = await render('/session/show', { engine: 'puppeteer', session_id: 'h' }, jar);
    const seen = shown(browser.markdown);
    expect(seen.cookies?.split('; ').sort()).toEqual(['hop=h2', 'keep=h1', 'lax=h2', 'sid=h1']);
    expect(seen.storage).toBe('kept');
    const none = await render('/session/show', { render: 'http' });
    expect(shown(none.markdown).cookies).toBe('none');
  });
});
