import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EchoSite {
  origin: string;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

const escape = (text: string) =>
  text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/**
 * The few pages the rendering tests need beyond the fixture site, on 127.0.0.1: one that sets a
 * cookie, one that shows the request's cookie and headers, one whose scripts spin for ever, and one
 * whose screenshot is too large.
 */
export async function startEchoSite(): Promise<EchoSite> {
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
    res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
