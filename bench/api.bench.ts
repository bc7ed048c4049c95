// `npm run bench:api`: requests per second of GET /v1/me with and without auth and rate limiting.
import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { freePort, waitForHttp } from '../test/support/processes';
import { startEntry, startServiceStack, stopProcess } from './service-stack';

const CONNECTIONS = 50;
const WARMUP_SECONDS = 3;
const ROUND_SECONDS = 10;
const ROUNDS = 3;
/** Far above what this machine can send, so the bucket takes a token every call and never refuses. */
const BENCH_RATE_PER_MINUTE = 10_000_000;

interface Server {
  name: string;
  url: string;
  child: ChildProcess;
}

/** CPU seconds (user + system) a process has used, from /proc: what a request costs the API itself. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function load(server: Server, key: string, seconds: number): Promise<autocannon.Result> {
  const result = await autocannon({
    url: `${server.url}/v1/me`,
    headers: { authorization: `Bearer ${key}` },
    connections: CONNECTIONS,
    duration: seconds,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad) throw new Error(`${server.name}: ${bad} of ${result.requests.total} requests did not answer 2xx`);
  return result;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  // Logs at the production level go to /dev/null: both variants pay the same for them. The
  // machine's Redis, as in the figures of docs/benchmarks.md.
  const stack = await startServiceStack({ redis: 'shared', logLevel: 'info' });
  let unguarded: Server | undefined;
  try {
    const plan = `bench_${stack.runId}`;
    await stack.createPlan(plan, {
      ratePerMinute: BENCH_RATE_PER_MINUTE,
      monthlyQuota: 1_000_000,
      maxConcurrentPages: 8,
    });
    const guarded: Server = { name: 'guarded', url: stack.apiUrl, child: stack.api };
    const key = await stack.createAccount(plan);
    const port = await freePort();
    unguarded = {
      name: 'unguarded',
      url: `http://127.0.0.1:${port}`,
      child: startEntry('bench/unguarded-api', { ...stack.env, BENCH_API_KEY: key, PORT: String(port) }),
    };
    await waitForHttp(`${unguarded.url}/healthz`);
    const servers = [guarded, unguarded];

    const probe = await fetch(`${guarded.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    const baseline = await fetch(`${unguarded.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    if (!probe.headers.get('x-ratelimit-limit') || baseline.headers.get('x-ratelimit-limit')) {
      throw new Error('the guarded server must take tokens and the unguarded one must not');
    }

    for (const s of servers) await load(s, key, WARMUP_SECONDS);
    const rates: Record<string, number[]> = { guarded: [], unguarded: [] };
    const p99: Record<string, number[]> = { guarded: [], unguarded: [] };
    const cpuPerRequest: Record<string, number[]> = { guarded: [], unguarded: [] };
    // Alternating rounds, so a neighbour's load on this shared machine hits both variants alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of servers) {
        const cpuBefore = cpuSeconds(s.child.pid!);
        const r = await load(s, key, ROUND_SECONDS);
        const cpuUs = ((cpuSeconds(s.child.pid!) - cpuBefore) / r.requests.total) * 1e6;
        rates[s.name].push(r.requests.average);
        p99[s.name].push(r.latency.p99);
        cpuPerRequest[s.name].push(cpuUs);
        console.log(
          `round ${round + 1} ${s.name}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, ` +
            `API CPU ${Math.round(cpuUs)} µs/request`,
        );
      }
    }
    const g = median(rates.guarded);
    const u = median(rates.unguarded);
    console.log(
      [
        `GET /v1/me, ${CONNECTIONS} connections, ${ROUNDS} x ${ROUND_SECONDS} s per variant (median):`,
        `  auth + bucket:   ${Math.round(g)} req/s, p99 ${median(p99.guarded)} ms, ` +
          `API CPU ${Math.round(median(cpuPerRequest.guarded))} µs/request`,
        `  guards off:      ${Math.round(u)} req/s, p99 ${median(p99.unguarded)} ms, ` +
          `API CPU ${Math.round(median(cpuPerRequest.unguarded))} µs/request`,
        `  ratio:           ${(g / u).toFixed(2)} (target >= 0.6, and >= 2000 req/s)`,
      ].join('\n'),
    );
  } finally {
    if (unguarded) await stopProcess(unguarded.child);
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
