import Redis from 'ioredis';
import { HOSTILE_CLASSES } from '../fixtures/hostile/hostile-corpus';
import {
  HOSTILE_ENGINES,
  PROBE_DEADLINE_MS,
  caseProblems,
  killTree,
  runHostileCase,
  type HostileTarget,
} from '../support/hostile-cases';
import { RunningProcess, startWorkerProcess } from '../support/processes';
import { IsolatedService, startIsolatedService } from '../support/worker-fleet';
import { recordHostile } from './report';

/**
 * The hostile corpus (test/fixtures/hostile) through the http engine, Playwright and Puppeteer: one
 * sync scrape each against a real worker process, with budgets of a few seconds. Each gets a page
 * result (content, or an error with a named code), the worker's /healthz and /metrics answer within
 * 1 s all along, and the next normal page on the same engine is fine. bench:hostile runs the same
 * cases at the default limits (docs/reliability.md, Hostile pages).
 */
const PAGE_TIMEOUT_MS = 3000;
/** A bound on each result: the page's timeout, the content work's and a generous margin. */
const RESULT_DEADLINE_MS = 15_000;
/** The content work's budget and heap, below the defaults so a case costs seconds. */
/**
 * The browsers' bound is set well under the suite's kill limit: the default follows the highest
 * level (5120 MiB at 16 pages on 2 CPUs), and a renderer grows by hundreds of MB between samples.
 */
const TEST_LIMITS = { CONTENT_TIMEOUT_MS: '1000', CONTENT_HEAP_MB: '256', BROWSER_MAX_MEMORY_MB: '2048' };
/** Past this (PSS) the worker's tree (Chromium included) is killed and the case fails: it protects the machine. */
const RSS_LIMIT_MIB = 4096;

describe('hostile corpus', () => {
  let service: IsolatedService;
  let worker: (RunningProcess & { port: number }) | undefined;
  let normalPage = 100;

  const startWorker = async () => {
    worker = await startWorkerProcess({ REDIS_URL: service.redis.url, ...TEST_LIMITS });
  };

  const stopWorker = async () => {
    if (!worker) return;
    killTree(worker.child.pid!);
    await worker.exited;
    worker = undefined;
  };

  const answersHealth = async () => {
    try {
      const res = await fetch(`http://127.0.0.1:${worker!.port}/healthz`, {
        signal: AbortSignal.timeout(PROBE_DEADLINE_MS),
      });
      return res.ok;
    } catch {
      return false;
    }
  };

  const target: HostileTarget = {
    origin: '',
    scrape: async (body) => {
      const res = await service.api
        .http()
        .post('/v1/scrape')
        .set('Authorization', `Bearer ${service.account.liveKey}`)
        .send(body);
      return { status: res.status, body: res.body };
    },
    worker: () => {
      const w = worker!;
      return {
        pid: w.child.pid!,
        port: w.port,
        alive: () => w.child.exitCode === null && !w.child.signalCode,
      };
    },
  };

  beforeAll(async () => {
    service = await startIsolatedService({ crawlDelaySeconds: null });
    target.origin = service.site.origin;
    await startWorker();
  }, 120_000);

  // A case that left the worker dead or stuck has failed already; the next one starts afresh, on an
  // empty Redis, so that nothing it left behind (a redelivered page) fails the cases after it.
  beforeEach(async () => {
    if (worker && target.worker().alive() && (await answersHealth())) return;
    await stopWorker();
    const redis = new Redis(service.redis.url);
    await redis.flushall();
    redis.disconnect();
    await startWorker();
  }, 60_000);

  afterAll(async () => {
    await stopWorker();
    await service?.close();
  });

  const cases = HOSTILE_CLASSES.flatMap((cls) => HOSTILE_ENGINES.map((engine) => ({ cls, engine })));
  it.each(cases)(
    '$cls.name through $engine',
    async ({ cls, engine }) => {
      normalPage += 1;
      const outcome = await runHostileCase({
        cls,
        engine,
        target,
        pageTimeoutMs: PAGE_TIMEOUT_MS,
        normalPage,
        rssLimitMiB: RSS_LIMIT_MIB,
      });
      recordHostile(outcome);
      expect(caseProblems(outcome, normalPage, RESULT_DEADLINE_MS)).toEqual([]);
    },
    90_000,
  );
});
