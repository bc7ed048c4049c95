import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

/**
 * An SVG whose `<use>` elements reference the level below `fanout` times, `levels` deep: a few KB
 * that Chromium expands into fanout^levels instances, taking the renderer's main thread and memory.
 */
export function svgUseBomb(levels: number, fanout: number): string {
  const groups = ['<g id="l0"><rect width="1" height="1"/></g>'];
  for (let level = 1; level <= levels; level++) {
    groups.push(`<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(fanout)}</g>`);
  }
  return page(
    'SVG use bomb',
    `<p>svgBombContent</p><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs>${groups.join('')}</defs><use href="#l${levels}"/></svg>`,
  );
}

/** Scripts run once loaded (those in RUN_AT_ONCE while parsing), each against one bound of the browser side. */
const SCRIPTS: Record<string, string> = {
  // Never yields, and starts again whenever it is stopped.
  'busy-loop': `setInterval(() => { while (true) {} }, 0);`,
  // Memory outside the JavaScript heap (typed arrays), touched so that it is resident; a request
  // that never ends keeps the page from settling, so the growth goes on until the deadline.
  'memory-growth': `fetch('/hang'); const kept = []; setInterval(() => { const b = new Uint8Array(64 * 1024 * 1024); b.fill(1); kept.push(b); }, 10);`,
  'alert-loop': `setInterval(() => { for (let i = 0; i < 100; i++) alert('again ' + i); }, 0);`,
  'popup-loop': `setInterval(() => { window.open(location.href + '?child=' + Math.random()); }, 10);`,
  'animation-frames': `const step = () => { document.title = 'frame ' + performance.now(); requestAnimationFrame(step); }; requestAnimationFrame(step);`,
  // Builds a document of about `mb` MB (of markup) while parsing, hidden so that no layout of it
  // slows the page down: the HTML read back is what is capped.
  'huge-dom': `const mb = Number(new URLSearchParams(location.search).get('mb') || 12);
const text = 'hugeDomFiller: the quick brown fox jumps over the lazy dog. '.repeat(17477);
const box = document.createElement('div');
box.hidden = true;
document.body.append(box);
for (let i = 0; i < mb; i++) { const p = document.createElement('p'); p.textContent = text; box.append(p); }`,
};

const RUN_AT_ONCE = new Set(['memory-growth', 'huge-dom']);

export interface HostileBrowserSite {
  origin: string;
  close(): Promise<void>;
}

/**
 * Pages that turn a browser against its host, generated here, on 127.0.0.1: `/svg-bomb?levels=&fanout=`
 * and `/script/<name>` for each of SCRIPTS; `/plain` is a normal page; `/hang` never answers.
 */
export async function startHostileBrowserSite(): Promise<HostileBrowserSite> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (html: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    };
    if (url.pathname === '/svg-bomb') {
      const levels = Math.min(12, Number(url.searchParams.get('levels') ?? 10));
      const fanout = Math.min(12, Number(url.searchParams.get('fanout') ?? 10));
      return send(svgUseBomb(levels, fanout));
    }
    const name = url.pathname.replace(/^\/script\//, '');
    const script = SCRIPTS[name];
    if (script) {
      const run = RUN_AT_ONCE.has(name) ? `{ ${script} }` : `addEventListener('load', () => { ${script} });`;
      return send(page('Hostile script', `<p>hostileScriptContent</p><script>${run}</script>`));
    }
    // Never answers: a request here ends only when the page goes.
    if (url.pathname === '/hang') return;
    if (url.pathname === '/plain') return send(page('Plain page', '<p>plainPageContent</p>'));
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
