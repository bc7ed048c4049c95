// `npm run bench:actions`: what page actions cost the worker, in CPU a page, against the same
// fixture page (/actions/reveal) with 0, 3 and 10 actions, and with none on a session whose
// cookies and localStorage are restored (a fresh browser context a page), and with none through an
// upstream proxy with basic auth (the loopback fixture proxy, in a process of its own, counted in
// neither: what is counted is our hop, the page's own egress proxy and context). RenderService as the worker runs it, in
// this process (its CPU: "Node"); its browser's process tree sampled from another process
// (process-tree.ts: "Chromium"); the fixture site served by a process of its own, counted in
// neither. The variants take turns, --rounds rounds of --pages pages each, --concurrency at a time,
// after a warm-up of every variant. Not a test gate; figures in docs/benchmarks.md, "Page actions".
//   npm run bench:actions -- --pages 40 --rounds 3 --concurrency 2 --engine playwright
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadWorkerEnv } from '@app/config';
import { createAddressPolicy } from '@app/net-guard';
import {
  SCRAPE_DEFAULTS,
  type BrowserEngine,
  type PageAction,
  type SessionState,
} from '@app/queue-contracts';
import { startRendering, type Rendering } from '@app/rendering';
import { BENCH_SANDBOX_ENV } from '../test/fixtures/chromium';
import { testEnvironment } from '../test/support/test-env';
import { childProcesses, startSamplingElsewhere } from './process-tree';

/** What each variant does on /actions/reveal (a button that fetches and reveals, three tag buttons). */
const THREE: PageAction[] = [
  { type: 'click', selector: '#more' },
  { type: 'wait', selector: '#out p' },
  { type: 'execute_javascript', script: 'return document.querySelectorAll("#out p").length' },
];
const VARIANTS: Record<string, PageAction[]> = {
  '0 actions': [],
  '3 actions': THREE,
  '10 actions': [
    ...THREE,
    { type: 'click', selector: '.tag', all: true },
    { type: 'scroll', direction: 'down', amount: 300 },
    { type: 'scroll', direction: 'up', amount: 300 },
    { type: 'press', key: 'Tab' },
    { type: 'scrape' },
    { type: 'execute_javascript', script: 'return document.title' },
    { type: 'screenshot' },
  ],
  '0 actions, session restored': [],
  '0 actions, through a proxy': [],
};
/** The variant whose pages run on a session (its state restored before each page, read after). */
const ON_SESSION = '0 actions, session restored';

/** What a logged-in session typically holds: a few cookies and localStorage items on the origin. */
const sessionState = (origin: string): SessionState => ({
  cookies: ['sid', 'pref', 'csrf'].map((name) => ({
    name,
    value: `${name}-value-0123456789abcdef`,
    domain: '127.0.0.1',
    path: '/',
    expires: -1,
    httpOnly: name === 'sid',
    secure: false,
  })),
  origins: [
    {
      origin,
      localStorage: [
        ['token', 'x'.repeat(200)],
        ['theme', 'dark'],
      ],
    },
  ],
});

/** The variant whose pages go through the upstream proxy. */
const VIA_PROXY = '0 actions, through a proxy';
const PROXY_CREDS = { username: 'bench', password: 'bench-pass' };

/** The loopback forward proxy fixture in a process of its own; its URL. */
async function startProxy(): Promise<{ child: ChildProcess; url: string }> {
  const fixture = resolve(
    __dirname,
    `../test/fixtures/forward-proxy${__filename.endsWith('.ts') ? '.ts' : '.js'}`,
  );
  const script = `require(${JSON.stringify(fixture)}).startForwardProxy(${JSON.stringify(PROXY_CREDS)}).then((p) => console.log(p.url))`;
  const child = spawn(process.execPath, [...process.execArgv, '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  return { child, url: line.toString().trim() };
}

/** The fixture site in a process of its own (test/fixtures/site/serve.ts), on a port of its own. */
async function startSite(port: number): Promise<ChildProcess> {
  const serve = resolve(
    __dirname,
    `../test/fixtures/site/serve${__filename.endsWith('.ts') ? '.ts' : '.js'}`,
  );
  const site = spawn(process.execPath, [...process.execArgv, serve, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(site.stdout, 'data')) as [Buffer];
  if (!line.toString().includes('fixture site on'))
    throw new Error(`the fixture site said: ${line.toString()}`);
  return site;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '40' },
      rounds: { type: 'string', default: '3' },
      concurrency: { type: 'string', default: '2' },
      engine: { type: 'string', default: 'playwright' },
      port: { type: 'string', default: '4817' },
    },
  });
  const pages = Number(values.pages);
  const concurrency = Number(values.concurrency);
  const origin = `http://127.0.0.1:${values.port}`;
  const site = await startSite(Number(values.port));
  const proxy = await startProxy();
  let rendering: Rendering | undefined;
  try {
    rendering = await startRendering({
      env: {
        ...loadWorkerEnv({ ...testEnvironment('bench'), NODE_ENV: 'production', ...BENCH_SANDBOX_ENV }),
        RENDER_CONCURRENCY: concurrency,
        BROWSER_POOL_SIZE: 1,
        // One browser throughout: its process tree is what is sampled.
        BROWSER_MAX_PAGES: 1_000_000,
      },
      policy: createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] }),
    });
    const service = rendering.service;
    const options = { ...SCRAPE_DEFAULTS, engine: values.engine as BrowserEngine, timeout: 30_000 };
    const run = async (name: string, count: number) => {
      const actions = VARIANTS[name];
      const session = name === ON_SESSION;
      let left = count;
      let failed = 0;
      const lane = async () => {
        for (; left > 0; left--) {
          const page = await service.render({
            url: `${origin}/actions/reveal`,
            options: { ...options, actions, ...(session ? { session_id: 'bench' } : {}) },
            isolationKey: 'bench-actions',
            ...(session ? { session: { state: sessionState(origin) } } : {}),
            ...(name === VIA_PROXY ? { proxy: { url: proxy.url, ...PROXY_CREDS } } : {}),
          });
          if (page.error) failed++;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, lane));
      return failed;
    };
    for (const name of Object.keys(VARIANTS)) await run(name, concurrency * 3);
    const browsers = childProcesses(process.pid, /chrom/i);
    if (!browsers.length) throw new Error('no browser process found after the warm-up');

    const rows: string[] = [];
    for (let round = 1; round <= Number(values.rounds); round++) {
      for (const name of Object.keys(VARIANTS)) {
        const sampling = await startSamplingElsewhere(browsers);
        const node = process.cpuUsage();
        const started = Date.now();
        const failed = await run(name, pages);
        const seconds = (Date.now() - started) / 1000;
        const nodeCpu = process.cpuUsage(node);
        const chromium = await sampling.stop();
        const nodeMs = (nodeCpu.user + nodeCpu.system) / 1000 / pages;
        const chromiumMs = (chromium.cpuSeconds * 1000) / pages;
        rows.push(
          `| ${name}, round ${round} | ${(pages / seconds).toFixed(2)} | ${nodeMs.toFixed(1)} | ${chromiumMs.toFixed(0)} | ${(nodeMs + chromiumMs).toFixed(0)} | ${failed} |`,
        );
        console.log(rows.at(-1));
      }
    }
    const still = childProcesses(process.pid, /chrom/i);
    if (still.join() !== browsers.join())
      throw new Error('the browser was replaced mid-run: its CPU is not all counted');
    console.log(
      `\n${values.engine}, ${pages} pages a variant a round, ${concurrency} at a time, /actions/reveal\n` +
        '| variant | pages/s | Node CPU ms/page | Chromium CPU ms/page | total | failed |\n| --- | ---: | ---: | ---: | ---: | ---: |\n' +
        rows.join('\n'),
    );
  } finally {
    await rendering?.close();
    site.kill('SIGTERM');
    proxy.child.kill('SIGTERM');
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
