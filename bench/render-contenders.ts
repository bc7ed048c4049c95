// The two peers of `npm run bench:render`, each run in a process of its own so that its whole tree
// (Node and Chromium) is what gets measured: `bare` (playwright-core, one browser, K contexts, one
// page at a time in each) and `crawlee` (Crawlee's PlaywrightCrawler on the same browser binary).
// Both block images, media and fonts with the service's Network.setBlockedURLs patterns and convert
// with the service's own buildContent at the API's defaults. The bare loop waits by the service's
// readiness rule (bare-readiness.ts) and reads the HTML as the service does (readDocumentHtml;
// `--read content`: Playwright's page.content()); Crawlee waits for "networkidle" (load, then 500 ms
// without a request) and reads page.content(), as its users and its own helpers do. Prints MEASURING when the measured pages start (the bench
// samples its process tree from then on), then one JSON line (RenderTiming).
// Run by render.bench.ts: node dist/bench/render-contenders.js bare|crawlee --origins URL,... --ids FROM:COUNT ...
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { createAddressPolicy, startEgressProxy } from '@app/net-guard';
import { SCRAPE_DEFAULTS } from '@app/queue-contracts';
import {
  BLOCKED_URL_PATTERNS,
  buildContent,
  chromiumArgs,
  readDocumentHtml,
  type CdpClient,
} from '@app/rendering';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, CHROMIUM_SANDBOX } from '../test/fixtures/chromium';
import { BareReadiness } from './bare-readiness';
import {
  PageTally,
  WARM_UP_FIRST_ID,
  pageUrl,
  renderedArticle,
  type PageSet,
  type RenderTiming,
} from './render-pages';

/** With its CPU and memory, sampled from outside its process (bench/sampler.ts). */
export interface RenderRun extends RenderTiming {
  cpuSeconds: number;
  peakRssMiB: number;
  peakPssMiB: number;
  processes: number;
}

/** Printed alone on a line when the measured pages start: the bench starts sampling then. */
export const MEASURING = 'MEASURING';

const measuring = () => process.stdout.write(`${MEASURING}\n`);

/**
 * Runs this script in a child process (`args`: the contender's kind, then its options), calling
 * `onMeasuring` with the child's pid when its measured pages start. Throws unless it exits 0 with
 * its timing as the last JSON line.
 */
export async function runContender(
  args: string[],
  onMeasuring: (pid: number) => void,
): Promise<RenderTiming> {
  const entry = resolve(__dirname, `render-contenders${__filename.endsWith('.ts') ? '.ts' : '.js'}`);
  const child = spawn(process.execPath, [...process.execArgv, entry, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === MEASURING) onMeasuring(child.pid!);
    else lines.push(line);
  });
  const code = await new Promise<number | null>((done) => child.once('close', done));
  const line = [...lines].reverse().find((l) => l.startsWith('{'));
  if (code !== 0 || !line) throw new Error(`${args[0]} failed (exit ${code}):\n${lines.join('\n')}`);
  return JSON.parse(line) as RenderTiming;
}

/**
 * Anything but 127.0.0.1 goes to a dead proxy on loopback: nothing leaves this machine. A PAC
 * script rather than --proxy-server, which Crawlee would take over (it puts a proxy of its own in
 * front and routes loopback through it too).
 */
const DEAD_PROXY = `--proxy-pac-url=data:application/x-ns-proxy-autoconfig;base64,${Buffer.from(
  'function FindProxyForURL(url, host) { return host === "127.0.0.1" ? "DIRECT" : "PROXY 127.0.0.1:9"; }',
).toString('base64')}`;

/** Extra flags the bare loop may try on top of the service's (see docs/decisions.md, "Rendering"). */
export const FLAG_SETS: Record<string, string[]> = {
  service: [],
  lean: [
    '--disable-extensions',
    '--disable-renderer-backgrounding',
    '--disable-features=OptimizationHints,Translate,MediaRouter,AutofillServerCommunication,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,PaintHolding',
    '--blink-settings=imagesEnabled=false',
  ],
};

function toMarkdown(html: string, url: string): string | undefined {
  return buildContent({ body: html, kind: 'html', url, options: SCRAPE_DEFAULTS }).markdown;
}

interface Tab {
  page: Page;
  readiness: BareReadiness;
  html(): Promise<string>;
}

interface Plan {
  pages: PageSet;
  /** Ids rendered first and not measured: the browser starts, Node compiles, caches fill. */
  warmup: number[];
  ids: number[];
  concurrency: number;
  flags: string[];
  /** How the bare loop reads the page's HTML. */
  read: 'cdp' | 'content';
  /** The bare loop goes through an egress proxy of its own, as the worker's browsers do. */
  egress: boolean;
}

async function bare({ pages, warmup, ids, concurrency, flags, read, egress }: Plan): Promise<RenderTiming> {
  // The worker's own proxy, in this process, open to the fixture site only.
  const proxy = egress
    ? await startEgressProxy({
        policy: createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] }),
        maxBytes: 64 * 1024 * 1024,
      })
    : undefined;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      ...flags,
      ...(proxy ? chromiumArgs(proxy.url, CHROMIUM_SANDBOX) : [...CHROMIUM_FLAGS, DEAD_PROXY]),
    ],
    chromiumSandbox: CHROMIUM_SANDBOX,
  });
  // One tab per context, reused for every page: a new tab costs a renderer process.
  const tabs = await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setBlockedURLs', { urls: BLOCKED_URL_PATTERNS });
      const { frameTree } = await cdp.send('Page.getFrameTree');
      const readiness = await BareReadiness.attach(cdp);
      const html = () =>
        read === 'cdp' ? readDocumentHtml(cdp as unknown as CdpClient, frameTree.frame.id) : page.content();
      return { page, readiness, html };
    }),
  );
  const render = async ({ page, readiness, html }: Tab, id: number): Promise<boolean> => {
    await readiness.navigate(page, pageUrl(pages, id));
    return renderedArticle(toMarkdown(await html(), page.url()), id);
  };
  const runAll = async (list: number[], onPage: (id: number, ms: number, ok: boolean) => void) => {
    let next = 0;
    await Promise.all(
      tabs.map(async (tab) => {
        while (next < list.length) {
          const id = list[next++];
          const t = Date.now();
          const ok = await render(tab, id).catch(() => false);
          onPage(id, Date.now() - t, ok);
        }
      }),
    );
  };
  try {
    await runAll(warmup, () => undefined);
    measuring();
    const tally = new PageTally(pages);
    await runAll(ids, (id, ms, ok) => tally.record(id, ms, ok));
    return tally.timing();
  } finally {
    await browser.close();
    await proxy?.close();
  }
}

async function crawlee({ pages, warmup, ids, concurrency, flags }: Plan): Promise<RenderTiming> {
  // Crawlee's storage stays in memory (persistStorage false) under a directory of this run's own.
  const storage = mkdtempSync(join(tmpdir(), 'render-bench-crawlee-'));
  process.env.CRAWLEE_STORAGE_DIR = storage;
  const { Configuration, PlaywrightCrawler, playwrightUtils } = await import('@crawlee/playwright');
  const config = new Configuration({
    persistStorage: false,
    storageClientOptions: { localDataDirectory: storage },
  });
  const measured = new Set(ids);
  const starts = new Map<string, number>();
  let tally: PageTally | undefined;
  const crawler = new PlaywrightCrawler(
    {
      launchContext: {
        launcher: chromium,
        launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...flags, DEAD_PROXY] },
      },
      browserPoolOptions: {
        // The fingerprint generator injects scripts into every page; the bench's peer is plain Chromium.
        useFingerprints: false,
        // As the service's BROWSER_MAX_PAGES (2000): no browser is replaced within the run.
        retireBrowserAfterPageCount: 2000,
      },
      // Pinned: Crawlee's autoscaling would otherwise react to the neighbours' load on this machine.
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestRetries: 0,
      navigationTimeoutSecs: 30,
      preNavigationHooks: [
        async ({ page, request }, gotoOptions) => {
          const id = Number(request.userData.id);
          if (measured.has(id) && !tally) {
            measuring();
            tally = new PageTally(pages);
          }
          starts.set(request.uniqueKey, Date.now());
          await playwrightUtils.blockRequests(page, { urlPatterns: BLOCKED_URL_PATTERNS });
          gotoOptions.waitUntil = 'networkidle';
        },
      ],
      requestHandler: async ({ page, request }) => {
        const id = Number(request.userData.id);
        const ok = renderedArticle(toMarkdown(await page.content(), page.url()), id);
        if (measured.has(id)) tally!.record(id, Date.now() - starts.get(request.uniqueKey)!, ok);
      },
      failedRequestHandler: ({ request }) => {
        const id = Number(request.userData.id);
        if (measured.has(id)) tally!.record(id, 0, false);
      },
    },
    config,
  );
  try {
    await crawler.run([...warmup, ...ids].map((id) => ({ url: pageUrl(pages, id), userData: { id } })));
    return tally!.timing();
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      origins: { type: 'string' },
      'late-every': { type: 'string', default: '0' },
      ids: { type: 'string' },
      same: { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      flags: { type: 'string', default: 'service' },
      read: { type: 'string', default: 'cdp' },
      egress: { type: 'boolean', default: false },
    },
  });
  const concurrency = Number(values.concurrency);
  const [from, count] = values.ids!.split(':').map(Number);
  // --same ID renders that one page `count` times (the latency comparison); else ids from..from+count-1.
  const ids = Array.from({ length: count }, (_, i) => (values.same ? Number(values.same) : from + i));
  const plan: Plan = {
    pages: { origins: values.origins!.split(','), lateEvery: Number(values['late-every']) },
    warmup: Array.from({ length: concurrency * 2 }, (_, i) => WARM_UP_FIRST_ID + i),
    ids,
    concurrency,
    flags: FLAG_SETS[values.flags],
    read: values.read === 'content' ? 'content' : 'cdp',
    egress: values.egress,
  };
  const run = positionals[0] === 'crawlee' ? await crawlee(plan) : await bare(plan);
  console.log(JSON.stringify(run));
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
