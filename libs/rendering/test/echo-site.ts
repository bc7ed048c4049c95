import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EchoSite {
  origin: string;
  /** Requests /tick?id=<id> has had (sent by the /ticker page's timer). */
  ticks(id: string): number;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

const escape = (text: string) =>
  text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/**
 * The few pages the rendering tests need beyond the fixture site, on 127.0.0.1: one that sets a
 * cookie, one that shows the request's cookie and headers, one whose scripts spin for ever, one
 * whose screenshot is too large, one whose scripts redefine how markup is read, one that counts
 * its loads, and one whose timer keeps calling back.
 */
export async function startEchoSite(): Promise<EchoSite> {
  const ticks = new Map<string, number>();
  let loads = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (html: string, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(html);
    };
    if (url.pathname === '/set-cookie') {
      const value = url.searchParams.get('value') ?? 'unset';
      return send(page('Cookie set', `<p>cookieSetTo ${escape(value)}</p>`), {
        'set-cookie': `session=${encodeURIComponent(value)}; Path=/; HttpOnly`,
      });
    }
    if (url.pathname === '/echo') {
      const lines = Object.entries(req.headers).map(
        ([k, v]) => `<li>${escape(k)}: ${escape(String(v))}</li>`,
      );
      return send(
        page('Echo', `<p>cookieHeader [${escape(req.headers.cookie ?? '')}]</p><ul>${lines.join('')}</ul>`),
      );
    }
    if (url.pathname === '/spin') {
      // Unlike the fixture site's one-off loop, this one starts again after being stopped.
      const script = `addEventListener('load', () => setInterval(() => { for (;;) {} }, 0));`;
      return send(page('Spinning', `<p>spinPageContent</p><script>${script}</script>`));
    }
    if (url.pathname === '/noise') {
      // Random pixels do not compress: a 1280 x 1700 PNG of them is about 6.5 MB.
      const script = `const c=document.getElementById('c'),x=c.getContext('2d'),d=x.createImageData(c.width,c.height);
crypto.getRandomValues(d.data.subarray(0, 65536));for(let i=0;i<d.data.length;i+=65536)crypto.getRandomValues(d.data.subarray(i,i+65536));
for(let i=3;i<d.data.length;i+=4)d.data[i]=255;x.putImageData(d,0,0);`;
      return send(
        page(
          'Noise',
          `<p>noisePageContent</p><canvas id="c" width="1280" height="1700"></canvas><script>${script}</script>`,
        ),
      );
    }
    if (url.pathname === '/tamper') {
      // What a scraper reading the page from the page's own world would get instead of the DOM.
      const script = `Object.defineProperty(Element.prototype, 'outerHTML', { get: () => '<body>tamperedMarkup</body>' });
window.XMLSerializer = function () { throw new Error('no serializer'); };`;
      return send(page('Tamper', `<p>tamperPageContent</p><script>${script}</script>`));
    }
    if (url.pathname === '/count') {
      loads++;
      return send(page('Count', `<p>countPageLoad ${loads}</p>`));
    }
    if (url.pathname === '/ticker') {
      const id = JSON.stringify(url.searchParams.get('id') ?? '');
      const script = `setInterval(() => fetch('/tick?id=' + encodeURIComponent(${id})), 250);`;
      return send(page('Ticker', `<p>tickerPageContent</p><script>${script}</script>`));
    }
    if (url.pathname === '/tick') {
      const id = url.searchParams.get('id') ?? '';
      ticks.set(id, (ticks.get(id) ?? 0) + 1);
      return res.writeHead(204).end();
    }
    res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    ticks: (id) => ticks.get(id) ?? 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
