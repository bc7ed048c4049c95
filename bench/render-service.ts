// The service's side of `npm run bench:render`: sync scrapes and async batches through the API of a
// service started as `npm start` starts it (service-stack.ts, npmStart), with the CPU and memory of
// its whole process tree (start.js, the API, the worker and its Chromium) and of the bench's own
// redis-server, sampled from another process (bench/sampler.ts).
import { startSamplingElsewhere } from './process-tree';
import type { RenderRun } from './render-contenders';
import { PageTally, idOf, renderedArticle, type PageSet } from './render-pages';
import type { ServiceStack } from './service-stack';

/**
 * How often the bench polls a batch, as a client would (Firecrawl's SDK polls every 2 s); each
 * GET /v1/jobs costs the API about 3 ms of CPU, counted in.
 */
const POLL_MS = 500;

export interface ScrapeBody {
  url: string;
  render: 'browser' | 'auto';
}

export type ServiceRun = RenderRun & { engines: Set<string> };

const sampleService = (stack: ServiceStack) => startSamplingElsewhere([stack.api.pid!, stack.redis!.pid]);

const engineOf = (result: Record<string, unknown>) =>
  String((result.metadata as { engine?: string } | undefined)?.engine);

const holdsArticle = (result: Record<string, unknown>) =>
  !result.error && renderedArticle(result.markdown as string | undefined, idOf(String(result.url)));

/** Sync scrapes of `bodies`, `concurrency` at a time. */
export async function scrapes(
  stack: ServiceStack,
  set: PageSet,
  bodies: ScrapeBody[],
  concurrency: number,
): Promise<ServiceRun> {
  const engines = new Set<string>();
  let next = 0;
  const sampling = await sampleService(stack);
  const tally = new PageTally(set);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const t = Date.now();
        const result = await stack
          .call('/v1/scrape', { method: 'POST', token: stack.key, body: JSON.stringify(body) })
          .catch((): Record<string, unknown> => ({}));
        engines.add(engineOf(result));
        tally.record(idOf(body.url), Date.now() - t, holdsArticle({ url: body.url, ...result }));
      }
    }),
  );
  const timing = tally.timing();
  return { ...timing, ...(await sampling.stop()), engines };
}

/** Posts one async batch and polls it until it ends. */
export async function runBatch(
  stack: ServiceStack,
  urls: string[],
  render: ScrapeBody['render'] = 'browser',
): Promise<{ id: string; job: Record<string, unknown> }> {
  const { job_id: id } = await stack.call('/v1/scrape/batch/async', {
    method: 'POST',
    token: stack.key,
    body: JSON.stringify({ urls, render }),
  });
  let job: Record<string, unknown>;
  do {
    await new Promise((r) => setTimeout(r, POLL_MS));
    job = await stack.call(`/v1/jobs/${id as string}?page_size=1`, { token: stack.key });
  } while (['queued', 'running'].includes(job.status as string));
  return { id: id as string, job };
}

/**
 * One async batch of `urls` (the service's throughput path: the worker pulls pages from the queue
 * itself), from its acceptance to its end (created_at to finished_at), sampling the service's
 * processes from POST to the poll that saw it end. Latency is the worker's own timings.total_ms of
 * each page (the bare loop's and Crawlee's are also per page, in-process).
 */
export async function batch(
  stack: ServiceStack,
  set: PageSet,
  urls: string[],
  render: ScrapeBody['render'] = 'browser',
): Promise<ServiceRun> {
  const sampling = await sampleService(stack);
  const { id, job } = await runBatch(stack, urls, render);
  const summary = await sampling.stop();
  const pages: Record<string, unknown>[] = [];
  let cursor = '';
  do {
    const answer = await stack.call(
      `/v1/jobs/${id}?page_size=1000${cursor && `&cursor=${encodeURIComponent(cursor)}`}`,
      {
        token: stack.key,
      },
    );
    const result = answer.result as { data: Record<string, unknown>[]; next: string | null };
    pages.push(...result.data);
    cursor = result.next ?? '';
  } while (cursor);
  const tally = new PageTally(set);
  for (const page of pages)
    tally.record(
      idOf(String(page.url)),
      (page.timings as { total_ms?: number } | undefined)?.total_ms ?? 0,
      holdsArticle(page),
    );
  // The job's own times (ms precision), so the poll interval does not add to the figure.
  const seconds = (Date.parse(job.finished_at as string) - Date.parse(job.created_at as string)) / 1000;
  return {
    ...tally.timing(),
    pages: urls.length,
    failed: urls.length - pages.filter(holdsArticle).length,
    seconds,
    ...summary,
    engines: new Set(pages.map(engineOf)),
  };
}
