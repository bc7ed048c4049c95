// `npm run bench:cache`: latency of POST /v1/scrape answered from the result cache (max_age), against
// the API and worker as `npm start` runs them. The fixture's pages are rendered once (http engine)
// to fill the cache; then --hits sequential requests with max_age, one client, are timed end to
// end, and --concurrency clients do the same together. Misses (max_age 0, rendered) are timed too,
// for comparison. Every timed hit must say cache_state "hit".
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ARTICLE_COUNT } from '../test/fixtures/site/articles';
import { startServiceStack } from './service-stack';

const { values: args } = parseArgs({
  options: {
    hits: { type: 'string', default: '2000' },
    misses: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '8' },
  },
});
const HITS = Number(args.hits);
const MISSES = Number(args.misses);
const CONCURRENCY = Number(args.concurrency);
const PAGES = Math.min(20, ARTICLE_COUNT);

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const summary = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `p50 ${quantile(s, 0.5).toFixed(1)} ms, p95 ${quantile(s, 0.95).toFixed(1)} ms, p99 ${quantile(s, 0.99).toFixed(1)} ms (n=${s.length})`;
};

async function main(): Promise<void> {
  const stack = await startServiceStack({ site: true, npmStart: true });
  try {
    const plan = `bench_${stack.runId}`;
    await stack.createPlan(plan, {
      ratePerMinute: 10_000_000,
      monthlyQuota: 10_000_000,
      maxConcurrentPages: 8,
    });
    const key = await stack.createAccount(plan);
    const urls = Array.from({ length: PAGES }, (_, i) => `${stack.site!.origin}/static/article/${i + 1}`);
    /** One POST /v1/scrape, timed from send to the whole body read; its cache_state. */
    const scrape = async (url: string, maxAge: number) => {
      const started = performance.now();
      const res = await fetch(`${stack.apiUrl}/v1/scrape`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ url, render: 'http', max_age: maxAge }),
      });
      const body = (await res.json()) as { metadata?: { cache_state?: string }; error?: unknown };
      const ms = performance.now() - started;
      if (res.status !== 200 || body.error)
        throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      return { ms, state: body.metadata!.cache_state };
    };
    const timedHits = async (n: number, offset: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const { ms, state } = await scrape(urls[(offset + i) % PAGES], 3_600_000);
        if (state !== 'hit') throw new Error(`expected a hit, got ${state}`);
        out.push(ms);
      }
      return out;
    };

    const misses: number[] = [];
    for (let i = 0; i < Math.max(MISSES, PAGES); i++) misses.push((await scrape(urls[i % PAGES], 0)).ms);
    await timedHits(200, 0); // warm-up
    const sequential = await timedHits(HITS, 0);
    const together = (
      await Promise.all(
        Array.from({ length: CONCURRENCY }, (_, c) => timedHits(Math.ceil(HITS / CONCURRENCY), c)),
      )
    ).flat();
    console.log(
      [
        `POST /v1/scrape, render http, ${PAGES} fixture articles, npm start (API + worker), load average ${loadavg()[0].toFixed(2)}:`,
        `  hit, 1 client:            ${summary(sequential)}`,
        `  hit, ${CONCURRENCY} clients:           ${summary(together)}`,
        `  miss (rendered), 1 client: ${summary(misses)}`,
      ].join('\n'),
    );
  } finally {
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
