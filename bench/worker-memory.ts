// Memory of a worker-shaped process tree, for the Kubernetes requests and limits (docs/benchmarks.md,
// "Kubernetes sizing"). Two modes:
//   --pid P [--seconds S]        samples a running process (a real worker) and its descendants
//   --origin URL [--concurrency C] [--pages N]
//                                launches Debian's chromium-headless-shell through playwright-core
//                                with the worker's flags and renders fixture pages, C at a time,
//                                each in its own context, sampling this process and its Chromium
// Run: node -r ts-node/register/transpile-only -r tsconfig-paths/register bench/worker-memory.ts ...
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../test/fixtures/chromium';
import { Sample, sampleWhile } from './process-tree';

const FIXTURE_PATHS = [
  '/static/article/feature',
  '/spa/article/feature',
  '/lazy/intersection',
  '/history/',
  '/corpus/',
  '/subresources/local',
];
function summary(label: string, samples: Sample[]): string {
  const peak = (key: 'rssMiB' | 'pssMiB') => Math.max(...samples.map((s) => s[key])).toFixed(0);
  const first = samples[0];
  const last = samples[samples.length - 1];
  const cpu = (last.cpuSeconds - first.cpuSeconds).toFixed(1);
  return `${label}: peak RSS ${peak('rssMiB')} MiB, peak PSS ${peak('pssMiB')} MiB, last RSS ${last.rssMiB.toFixed(0)} MiB, CPU ${cpu} s, processes up to ${Math.max(...samples.map((s) => s.processes))}`;
}

async function measurePid(pid: number, seconds: number): Promise<void> {
  const { samples } = await sampleWhile([pid], () => new Promise((r) => setTimeout(r, seconds * 1000)));
  console.log(summary(`pid ${pid} over ${seconds} s`, samples));
}

async function measureChromium(origin: string, concurrency: number, pages: number): Promise<void> {
  // Anything but loopback goes to a dead proxy on loopback: nothing leaves this machine.
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, '--proxy-server=http://127.0.0.1:9'],
  });
  try {
    await new Promise((r) => setTimeout(r, 2000));
    const idle = await sampleWhile([process.pid], () => new Promise((r) => setTimeout(r, 3000)));
    console.log(summary('browser launched, no page', idle.samples));
    let next = 0;
    const lane = async () => {
      while (next < pages) {
        const path = FIXTURE_PATHS[next++ % FIXTURE_PATHS.length];
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(new URL(path, origin).href, { waitUntil: 'networkidle', timeout: 30_000 });
        await page.content();
        await context.close();
      }
    };
    const started = Date.now();
    const busy = await sampleWhile([process.pid], () =>
      Promise.all(Array.from({ length: concurrency }, lane)),
    );
    const seconds = (Date.now() - started) / 1000;
    console.log(summary(`${pages} pages, ${concurrency} at a time, ${seconds.toFixed(1)} s`, busy.samples));
    const after = await sampleWhile([process.pid], () => new Promise((r) => setTimeout(r, 3000)));
    console.log(summary('idle again', after.samples));
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pid: { type: 'string' },
      seconds: { type: 'string', default: '30' },
      origin: { type: 'string', default: 'http://127.0.0.1:4555' },
      concurrency: { type: 'string', default: '2' },
      pages: { type: 'string', default: '60' },
    },
  });
  if (values.pid) await measurePid(Number(values.pid), Number(values.seconds));
  else await measureChromium(values.origin, Number(values.concurrency), Number(values.pages));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
