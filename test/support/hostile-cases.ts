// One hostile page through one engine, as the hostile suite (test/resilience) and bench:hostile run
// it: a sync scrape of the page while the worker's /healthz and /metrics are probed and its process
// tree's RSS is sampled, then a sync scrape of a normal page on the same engine.
import { PAGE_ERROR_CODES, type PageResult } from '@app/queue-contracts';
import { processTree, sample } from '../../bench/process-tree';
import type { HostileClass } from '../fixtures/hostile/hostile-corpus';
import { articleFor } from '../fixtures/site/articles';

export const HOSTILE_ENGINES = ['http', 'playwright', 'puppeteer'] as const;
export type HostileEngine = (typeof HOSTILE_ENGINES)[number];

/** What the issue asks of the worker during a hostile page: its probes answer within this. */
export const PROBE_DEADLINE_MS = 1000;
/** And of the next normal page. */
export const NEXT_PAGE_DEADLINE_MS = 20_000;

export interface ScrapeAnswer {
  status: number;
  body: unknown;
}

export interface HostileTarget {
  origin: string;
  /** POST /v1/scrape with this body as the account's key. */
  scrape(body: object): Promise<ScrapeAnswer>;
  worker(): { pid: number; port: number; alive: () => boolean };
}

export interface ProbeSummary {
  probes: number;
  /** Probes that failed or took longer than PROBE_DEADLINE_MS: "path: what" each. */
  failures: string[];
  slowestMs: number;
}

export interface HostileOutcome {
  cls: HostileClass;
  engine: HostileEngine;
  status: number;
  result: Partial<PageResult> | undefined;
  ms: number;
  peakRssMiB: number;
  /** Set when the worker's tree passed the RSS limit and was killed. */
  killedOverMiB?: number;
  health: ProbeSummary;
  workerAlive: boolean;
  next: { status: number; result: Partial<PageResult> | undefined; ms: number } | undefined;
}

export const engineOptions = (engine: HostileEngine) =>
  engine === 'http' ? { render: 'http' } : { render: 'browser', engine };

const isErrorCode = (code: unknown) => (PAGE_ERROR_CODES as readonly unknown[]).includes(code);

/** A page result has its shape: content, or `error: {code, message}` (code first) with a known code. */
export function resultProblem(status: number, result: Partial<PageResult> | undefined): string | undefined {
  if (status !== 200) return `HTTP ${status}: ${JSON.stringify(result).slice(0, 200)}`;
  if (!result || typeof result !== 'object') return 'no page result';
  if (result.error) {
    const { error } = result;
    if (Object.keys(error)[0] !== 'code') return `error without its code first: ${JSON.stringify(error)}`;
    if (!isErrorCode(error.code)) return `unknown error code ${String(error.code)}`;
    if (typeof error.message !== 'string' || !error.message) return `error ${error.code} without a message`;
    return undefined;
  }
  if (!result.markdown?.trim()) return 'a 200 with neither content nor error';
  return undefined;
}

export const HOSTILE_COLUMNS = [
  'class',
  'engine',
  'outcome',
  'time',
  'worker peak RSS',
  'slowest probe',
  'next page',
];

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A row of the reliability table (docs/reliability.md, Hostile pages). */
export function hostileRow(o: HostileOutcome): string[] {
  const next = !o.next
    ? '-'
    : o.next.status === 200 && !o.next.result?.error
      ? `ok, ${seconds(o.next.ms)}`
      : `${o.next.status} ${o.next.result?.error?.code ?? ''}`.trim();
  return [
    o.cls.name,
    o.engine,
    describeOutcome(o),
    seconds(o.ms),
    `${Math.round(o.peakRssMiB)} MiB`,
    o.health.failures.length
      ? `${o.health.failures.length} failed, ${o.health.slowestMs} ms`
      : `${o.health.slowestMs} ms`,
    next,
  ];
}

/** How a row of the table says what came back. */
export function describeOutcome(o: HostileOutcome): string {
  if (o.killedOverMiB) return `worker tree killed over ${o.killedOverMiB} MiB`;
  if (!o.workerAlive) return `worker died; HTTP ${o.status}`;
  if (o.status !== 200) return `HTTP ${o.status}`;
  if (o.result?.error) return `${o.result.error.code}: ${o.result.error.message}`.slice(0, 140);
  return `content, ${o.result?.markdown?.length ?? 0} chars of markdown`;
}

async function probe(url: string): Promise<string | undefined> {
  const started = Date.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(PROBE_DEADLINE_MS) });
    await res.arrayBuffer();
    if (res.status !== 200) return `${res.status}`;
    const ms = Date.now() - started;
    return ms > PROBE_DEADLINE_MS ? `${ms} ms` : undefined;
  } catch (err) {
    return `${(err as Error).name} after ${Date.now() - started} ms`;
  }
}

/** /healthz and /metrics, both at once, every 200 ms until stop(). */
function probeWhile(port: number): { stop(): Promise<ProbeSummary> } {
  const summary: ProbeSummary = { probes: 0, failures: [], slowestMs: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      const paths = ['/healthz', '/metrics'];
      const answers = await Promise.all(paths.map((p) => probe(`http://127.0.0.1:${port}${p}`)));
      summary.probes += 1;
      summary.slowestMs = Math.max(summary.slowestMs, Date.now() - started);
      answers.forEach((a, i) => a && summary.failures.push(`${paths[i]}: ${a}`));
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return summary;
    },
  };
}

/** Kills a process and everything under it (a worker's Chromium outlives a killed worker otherwise). */
export function killTree(pid: number): void {
  for (const p of processTree(pid).reverse()) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * The worker tree's RSS every 100 ms, with a limit past which the tree is killed: a page that makes
 * the browser grow without bound must not take the machine (the suite's other cases, other work)
 * with it. The limit is on PSS, read only once the RSS sum is past it: RSS counts every page
 * Chromium's processes share once in each of them (two browsers' trees read up to 3.8 GiB here
 * while they held far less), as the worker's own BrowserMemoryGuard does.
 */
function sampleRss(pid: number, limitMiB: number): { stop(): { peakMiB: number; killed: boolean } } {
  let peakMiB = 0;
  let killed = false;
  const take = () => {
    const rss = sample(pid, false).rssMiB;
    peakMiB = Math.max(peakMiB, rss);
    if (rss > limitMiB && !killed && sample(pid, true).pssMiB > limitMiB) {
      killed = true;
      killTree(pid);
    }
  };
  take();
  const timer = setInterval(take, 100);
  return {
    stop() {
      clearInterval(timer);
      if (!killed) take();
      return { peakMiB, killed };
    },
  };
}

export interface HostileCaseOptions {
  cls: HostileClass;
  engine: HostileEngine;
  target: HostileTarget;
  /** The scrape's `timeout`; undefined leaves the API's default. */
  pageTimeoutMs?: number;
  /** Id of the normal page scraped after it (a different one each case, so nothing is cached). */
  normalPage: number;
  rssLimitMiB: number;
}

export async function runHostileCase(o: HostileCaseOptions): Promise<HostileOutcome> {
  const worker = o.target.worker();
  const options = {
    ...engineOptions(o.engine),
    formats: ['markdown', 'links'],
    ...(o.pageTimeoutMs ? { timeout: o.pageTimeoutMs } : {}),
  };
  const probes = probeWhile(worker.port);
  const rss = sampleRss(worker.pid, o.rssLimitMiB);
  const started = Date.now();
  let answer: ScrapeAnswer | undefined;
  let failure: unknown;
  try {
    answer = await o.target.scrape({ url: o.target.origin + o.cls.path, ...options });
  } catch (err) {
    failure = err;
  }
  const ms = Date.now() - started;
  const memory = rss.stop();
  const health = await probes.stop();
  if (!answer) throw failure;
  const outcome: HostileOutcome = {
    cls: o.cls,
    engine: o.engine,
    status: answer.status,
    result: answer.body as Partial<PageResult>,
    ms,
    peakRssMiB: memory.peakMiB,
    ...(memory.killed ? { killedOverMiB: o.rssLimitMiB } : {}),
    health,
    workerAlive: worker.alive(),
    next: undefined,
  };
  if (!outcome.workerAlive) return outcome;
  const nextStarted = Date.now();
  const next = await o.target.scrape({
    url: `${o.target.origin}/static/article/${o.normalPage}`,
    ...engineOptions(o.engine),
    timeout: NEXT_PAGE_DEADLINE_MS,
  });
  outcome.next = {
    status: next.status,
    result: next.body as Partial<PageResult>,
    ms: Date.now() - nextStarted,
  };
  return outcome;
}

/**
 * Why the case fails the checks, or nothing. `resultDeadlineMs` bounds the hostile page's result
 * (generously: a page's deadline must give its result at once, not merely before the API's 504).
 */
export function caseProblems(o: HostileOutcome, normalPage: number, resultDeadlineMs: number): string[] {
  const problems: string[] = [];
  if (o.ms > resultDeadlineMs) problems.push(`page result after ${o.ms} ms (bound ${resultDeadlineMs} ms)`);
  if (o.killedOverMiB) problems.push(`worker tree passed ${o.killedOverMiB} MiB and was killed`);
  const shape = resultProblem(o.status, o.result);
  if (shape) problems.push(`page result: ${shape}`);
  if (!o.workerAlive) problems.push('the worker died');
  if (o.health.probes === 0) problems.push('no health probe ran');
  if (o.health.failures.length)
    problems.push(`health probes failed: ${o.health.failures.slice(0, 5).join('; ')}`);
  if (o.next) {
    const title = articleFor(String(normalPage))!.title;
    const nextShape = resultProblem(o.next.status, o.next.result);
    if (nextShape) problems.push(`next page: ${nextShape}`);
    else if (o.next.result?.error) problems.push(`next page failed: ${o.next.result.error.code}`);
    else if (!o.next.result?.markdown?.includes(title)) problems.push('next page without its title');
    if (o.next.ms > NEXT_PAGE_DEADLINE_MS) problems.push(`next page took ${o.next.ms} ms`);
  }
  return problems;
}
