// `npm run bench:render-profile`: where CPU a page goes, by process kind (the API, the worker's
// Node and its threads, Chromium's browser, renderer, GPU and network processes, redis-server,
// MariaDB), for the service rendering one async batch (with its Redis commands and MariaDB
// statements a page), or (--bare) for bench:render's bare loop. Figures in docs/benchmarks.md,
// "Render".
// Options: --pages N (300), --k N (4: RENDER_CONCURRENCY, or the bare loop's contexts),
//          --static (server-rendered articles with render: auto instead of client-rendered ones
//          through the browser), --bare, --read cdp|content (the bare loop's way of reading the
//          HTML), --egress (the bare loop through an egress proxy of its own, as the worker's
//          browsers), --env NAME=VALUE (worker settings, repeatable), --prof DIR (the worker's
//          --cpu-prof into DIR), --api-prof DIR (the API's), --idle S (the service waits S seconds
//          between its warm-up and the measured batch, as in bench:render, where the other two
//          contenders run in between), --batches N (that many measured batches in turn on the same
//          service, each on pages of its own, each idle S seconds first), --node-arg ARG (an
//          option for the worker's node, repeatable: V8 flags NODE_OPTIONS refuses). Both kinds of
//          run also print when their pages finished (ramp-up and tail).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startFixtureSite, type FixtureSite } from '../test/fixtures/site/fixture-site';
import { ownTicks, processRssMiB, processTree, sample, threadTicks } from './process-tree';
import { runContender } from './render-contenders';
import { renderedArticle, spaUrl } from './render-pages';
import { JobStats } from '@app/jobs';
import { startServiceStack, type ServiceStack } from './service-stack';

const SAMPLE_MS = 200;

/** A named root process, or the kind of a Chromium process from its (rewritten) command line. */
function kindOf(pid: number, roots: Record<string, number>): string {
  const named = Object.entries(roots).find(([, root]) => root === pid);
  if (named) return named[0];
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
  if (!args[0].includes('chrom')) return args[0] || 'other';
  const type = args.find((a) => a.startsWith('--type='))?.slice('--type='.length);
  const sub = args
    .find((a) => a.startsWith('--utility-sub-type='))
    ?.split('.')
    .pop();
  // A renderer is forked from the zygote and shows the zygote's command line for a moment.
  return `chromium ${type === 'zygote' ? 'renderer' : (type ?? 'browser')}${sub ? ` (${sub})` : ''}`;
}

/** Each process's own CPU from its first sample to its last, grouped by kind. */
function startProfile(roots: Record<string, number>) {
  const seen = new Map<number, { kind: string; first: number; last: number }>();
  // Node's own processes also by thread (its main loop, the content threads, V8's helpers), from
  // their first reading to their last (the bare loop has ended when it is stopped).
  const nodes = Object.entries(roots).filter(([kind]) => kind.endsWith('(Node)'));
  const threads = new Map<string, { first: Map<string, number>; last: Map<string, number> }>();
  const take = (initial: boolean) => {
    for (const [kind, pid] of nodes) {
      try {
        const now = threadTicks(pid);
        if (initial) threads.set(kind, { first: now, last: now });
        else threads.get(kind)!.last = now;
      } catch {
        // The process ended while we looked.
      }
    }
    for (const pid of Object.values(roots).flatMap(processTree)) {
      try {
        const ticks = ownTicks(pid);
        const known = seen.get(pid);
        if (known) known.last = ticks;
        else seen.set(pid, { kind: kindOf(pid, roots), first: initial ? ticks : 0, last: ticks });
      } catch {
        // The process ended while we looked.
      }
    }
  };
  take(true);
  const timer = setInterval(() => take(false), SAMPLE_MS);
  return {
    stop(pages: number): string {
      clearInterval(timer);
      take(false);
      const byKind = new Map<string, { ms: number; processes: number }>();
      for (const { kind, first, last } of seen.values()) {
        const entry = byKind.get(kind) ?? { ms: 0, processes: 0 };
        entry.ms += (last - first) * 10;
        entry.processes++;
        byKind.set(kind, entry);
      }
      const rows = [...byKind].sort((a, b) => b[1].ms - a[1].ms);
      const all = rows.filter(([kind]) => kind !== 'mysqld').reduce((sum, [, e]) => sum + e.ms, 0);
      return [
        ...rows.map(
          ([kind, e]) =>
            `  ${kind.padEnd(44)} ${(e.ms / pages).toFixed(1).padStart(6)} ms/page (${e.processes} processes)`,
        ),
        `  ${'all but mysqld'.padEnd(44)} ${(all / pages).toFixed(1).padStart(6)} ms/page`,
        ...[...threads].map(([kind, { first, last }]) => {
          const byName = [...last]
            .map(([name, ticks]): [string, number] => [name, (ticks - (first.get(name) ?? 0)) * 10])
            .filter(([, ms]) => ms > 0)
            .sort((a, b) => b[1] - a[1]);
          return `  ${kind} by thread: ${byName.map(([name, ms]) => `${name} ${(ms / pages).toFixed(1)}`).join(', ')} ms/page`;
        }),
      ].join('\n');
    },
  };
}

/** What the fixture site served over the measured pages: cached assets are not asked for again. */
const requestsPerPage = (site: FixtureSite, pages: number) =>
  `${(site.hits() / pages).toFixed(2)} fixture requests a page`;

async function profileBare(pages: number, k: string, read: string, egress: boolean): Promise<void> {
  const site = await startFixtureSite({ crawlDelaySeconds: null, trapRefusedAddresses: false });
  try {
    const args = [
      'bare',
      '--origins',
      site.origin,
      '--ids',
      `1:${pages}`,
      '--concurrency',
      k,
      '--read',
      read,
    ];
    if (egress) args.push('--egress');
    // From its measured pages on, as bench:render and the service's profile: launch and warm-up left out.
    let profile: ReturnType<typeof startProfile> | undefined;
    const run = await runContender(args, (pid) => {
      site.resetHits();
      profile ??= startProfile({ 'bare loop (Node)': pid });
    });
    if (!profile) throw new Error('the bare loop never said its measured pages started');
    console.log(`  timeline (s from the first page's start): ${finishing(run.doneSeconds!)}`);
    console.log(
      `bare loop, ${run.pages} pages: ${(run.pages / run.seconds).toFixed(2)} pages/s, ${requestsPerPage(site, pages)}`,
    );
    console.log(profile.stop(pages));
  } finally {
    await site.close();
  }
}

interface ServiceProfile {
  pages: number;
  k: string;
  isStatic: boolean;
  env: string[];
  prof?: string;
  apiProf?: string;
  idleSeconds: number;
  batches: number;
  nodeArgs: string[];
}

const cpuProf = (dir: string | undefined) => (dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []);

async function profileService(profile: ServiceProfile) {
  const { pages, k, isStatic, env, prof, apiProf, idleSeconds, batches, nodeArgs } = profile;
  const stack = await startServiceStack({ site: true, apiNodeArgs: cpuProf(apiProf) });
  try {
    const settings = Object.fromEntries(
      env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]),
    );
    await stack.startWorker(
      { WORKER_QUEUES: 'render', RENDER_CONCURRENCY: k, HOST_CONCURRENCY: '64', ...settings },
      [...cpuProf(prof), ...nodeArgs],
    );
    const origin = stack.site!.origin;
    const url = (i: number) => (isStatic ? `${origin}/static/article/${2_000 + i}` : spaUrl(origin, 1 + i));
    const runBatch = async (urls: string[]) => {
      const { job_id: id } = await stack.call('/v1/scrape/batch/async', {
        method: 'POST',
        token: stack.key,
        body: JSON.stringify({ urls, render: isStatic ? 'auto' : 'browser' }),
      });
      const job = await stack.waitForJobEnd(stack.key, id as string);
      return {
        id: id as string,
        seconds: (Date.parse(job.finished_at as string) - Date.parse(job.created_at as string)) / 1000,
      };
    };
    // Warm-up on other pages: the browser starts, Node compiles.
    await runBatch(Array.from({ length: 2 * Number(k) }, (_, i) => url(7_000 + i)));
    const mysqld = Number(execFileSync('pgrep', ['-o', '-x', 'mariadbd']).toString().trim());
    for (let b = 0; b < batches; b++) {
      await new Promise((r) => setTimeout(r, idleSeconds * 1000));
      stack.site!.resetHits();
      const trips = await roundTrips(stack);
      const profile = startProfile({
        api: stack.api.pid!,
        'worker (Node)': stack.worker!.pid!,
        'redis-server': stack.redis!.pid,
        mysqld,
      });
      const { id, seconds } = await runBatch(Array.from({ length: pages }, (_, i) => url(b * pages + i)));
      const report = profile.stop(pages);
      console.log(await timeline(stack, id));
      const { result } = await stack.call(`/v1/jobs/${id}?page_size=1000`, { token: stack.key });
      const good = (result as { data: { error?: unknown; markdown?: string; url: string }[] }).data.filter(
        (p) => !p.error && renderedArticle(p.markdown, Number(p.url.split('/').pop())),
      );
      console.log(
        `service, batch ${b + 1}, ${pages} ${isStatic ? 'static pages, render auto' : 'client-rendered pages'}, ` +
          `RENDER_CONCURRENCY ${settings.RENDER_CONCURRENCY ?? k}: ${(pages / seconds).toFixed(2)} pages/s, ${good.length} rendered, ` +
          requestsPerPage(stack.site!, pages),
      );
      console.log(report);
      console.log(await trips.report(pages));
      const tree = sample(stack.worker!.pid!);
      console.log(
        `  after it: worker RSS ${processRssMiB(stack.worker!.pid!).toFixed(0)} MiB, worker tree ` +
          `RSS ${tree.rssMiB.toFixed(0)} MiB, PSS ${tree.pssMiB.toFixed(0)} MiB (${tree.processes} processes)`,
      );
    }
  } finally {
    await stack.stop();
  }
}

/** When pages finished (seconds, ascending): where a run's ramp-up and tail go. */
function finishing(done: number[]): string {
  const at = (q: number) => done[Math.min(done.length - 1, Math.floor(q * done.length))].toFixed(2);
  return `pages done: first ${at(0)}, 10% ${at(0.1)}, 50% ${at(0.5)}, 90% ${at(0.9)}, last ${at(1)}`;
}

/**
 * Redis commands (those a Lua script or a MULTI runs included) and MariaDB statements a page, of
 * the worker, the API and the bench's own polling together.
 */
async function roundTrips(stack: ServiceStack) {
  const redis = stack.redisClient!;
  const sql = async () =>
    new Map(
      (
        await stack.db.query<{ Variable_name: string; Value: string }[]>(`SHOW GLOBAL STATUS LIKE 'Com\\_%'`)
      ).map((row) => [row.Variable_name.slice(4), Number(row.Value)]),
    );
  await redis.config('RESETSTAT');
  const before = await sql();
  return {
    async report(pages: number): Promise<string> {
      const commands = [...(await redis.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map(
        ([, name, calls]) => [name, Number(calls)] as const,
      );
      const after = await sql();
      const statements = [...after].map(([name, count]) => [name, count - (before.get(name) ?? 0)] as const);
      const line = (label: string, counts: (readonly [string, number])[]) => {
        const total = counts.reduce((sum, [, n]) => sum + n, 0);
        const top = counts
          .filter(([, n]) => n > 0)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 20)
          .map(([name, n]) => `${name} ${(n / pages).toFixed(1)}`);
        return `  ${label} a page: ${(total / pages).toFixed(1)} (${top.join(', ')})`;
      };
      // The statements are the whole server's: any other client's count too.
      return [line('redis commands', commands), line('MariaDB statements', statements)].join('\n');
    },
  };
}

/** When the batch's pages finished, from its acceptance. */
async function timeline(stack: ServiceStack, jobId: string): Promise<string> {
  const job = await new JobStats(stack.db).timeline(jobId);
  const since = (d: Date) => (d.getTime() - job.created.getTime()) / 1000;
  const done = job.pages.map(since);
  return (
    `  timeline (s from acceptance): started ${since(job.started!).toFixed(2)}, ` +
    `${finishing(done)}; job ended ${since(job.finished!).toFixed(2)}`
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '300' },
      k: { type: 'string', default: '4' },
      static: { type: 'boolean', default: false },
      bare: { type: 'boolean', default: false },
      egress: { type: 'boolean', default: false },
      read: { type: 'string', default: 'cdp' },
      env: { type: 'string', multiple: true, default: [] },
      prof: { type: 'string' },
      'api-prof': { type: 'string' },
      idle: { type: 'string', default: '0' },
      batches: { type: 'string', default: '1' },
      'node-arg': { type: 'string', multiple: true, default: [] },
    },
  });
  const pages = Number(values.pages);
  if (values.bare) await profileBare(pages, values.k, values.read, values.egress);
  else {
    const { k, static: isStatic, env, prof } = values;
    await profileService({
      pages,
      k,
      isStatic,
      env,
      prof,
      apiProf: values['api-prof'],
      idleSeconds: Number(values.idle),
      batches: Number(values.batches),
      nodeArgs: values['node-arg'],
    });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
