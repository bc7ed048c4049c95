import { parseDocument } from './html-document';
import { needsJavaScript } from './needs-javascript';

const verdict = (html: string) => needsJavaScript(parseDocument(html));
const prose = (chars: number) => `<p>${'word '.repeat(Math.ceil(chars / 5))}</p>`;

describe('needsJavaScript', () => {
  it('keeps a server-rendered article on plain HTTP, even with scripts and a noscript note', () => {
    const html = `<html><head><script src="/app.js"></script></head><body>
      <noscript>Comments need JavaScript.</noscript><article>${prose(2000)}</article></body></html>`;
    expect(verdict(html)).toEqual({
      needed: false,
      reason: expect.stringContaining('characters of server-rendered text'),
    });
  });

  it.each([
    '<div id="root"></div>',
    '<div id="__next"></div>',
    '<app-root></app-root>',
    '<div id="app"> </div>',
  ])('renders an empty app root %s in the browser', (root) => {
    const html = `<html><head><script src="/bundle.js" defer></script></head><body><nav>${prose(400)}</nav>${root}</body></html>`;
    expect(verdict(html)).toMatchObject({ needed: true, reason: expect.stringContaining('empty app root') });
  });

  it('does not count an empty root without scripts: nothing would fill it', () => {
    expect(verdict(`<html><body>${prose(400)}<div id="root"></div></body></html>`).needed).toBe(false);
  });

  it('renders a noscript wall in the browser', () => {
    const html = `<html><body><noscript>You need to enable JavaScript to run this app.</noscript>${prose(500)}</body></html>`;
    expect(verdict(html)).toEqual({ needed: true, reason: 'noscript wall' });
  });

  it('renders a page with scripts but too little text in the browser; a short static page stays', () => {
    expect(
      verdict(
        `<html><head><script>boot()</script></head><body><main id="view"></main><p>Menu</p></body></html>`,
      ),
    ).toMatchObject({
      needed: true,
      reason: expect.stringContaining('characters of text'),
    });
    expect(verdict('<html><body><p>Just a short static note.</p></body></html>').needed).toBe(false);
  });

  it('does not count script, style or noscript text as visible text', () => {
    const html = `<html><body><script>${'x'.repeat(5000)}</script><style>${'y'.repeat(5000)}</style><p>Hi</p></body></html>`;
    expect(verdict(html).needed).toBe(true);
  });

  it('counts visible text with whitespace runs as one space, ends trimmed', () => {
    const text = `  one\u00a0\u00a0two \n\t three\u3000\u2003four  `;
    const html = `<html><body><p>${text}</p><p>${'x'.repeat(300)}</p></body></html>`;
    const expected = text.replace(/\s+/g, ' ').trim().length + 300;
    expect(verdict(html).reason).toBe(`${expected} characters of server-rendered text`);
  });

  it('names the first empty app root in the document', () => {
    const html = `<html><head><script src="/b.js"></script></head><body><div ng-app></div><div id="root"></div></body></html>`;
    expect(verdict(html)).toEqual({ needed: true, reason: 'empty app root [ng-app]' });
  });

  it('follows a meta refresh in the browser', () => {
    expect(
      verdict(
        `<html><head><meta http-equiv="Refresh" content="0; url=/next"></head><body>${prose(2000)}</body></html>`,
      ),
    ).toEqual({
      needed: true,
      reason: 'meta refresh',
    });
  });
});
