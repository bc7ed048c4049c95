import type { DataSource } from 'typeorm';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/fixture-site';
import { createAccount, type ApiHarness, type TestAccount } from '../support/api-harness';
import { expectEveryPageOnce, waitForFinishedPages } from '../support/jobs';
import { freePort } from '../support/processes';
import {
  API_IMAGE,
  RESTRICTED,
  WORKER_IMAGE,
  WORKER_SECURITY,
  containerEnv,
  isChromium,
  logsOf,
  podman,
  podmanAsync,
  processesOf,
  removeContainers,
  runUntilReady,
} from './podman';
import { remoteApi, runDatabase } from './remote-api';

/**
 * The service as an operator runs it: the database migrated by the API image (global setup), the
 * API and a worker as containers on the host network against this machine's MariaDB and Redis,
 * each read-only, uid 1000, no capabilities, the API under podman's default seccomp profile
 * (RuntimeDefault) and the worker under k8s/seccomp/scraper-chromium.json. Every request, the
 * fixture site's included, stays on 127.0.0.1.
 */
const started: string[] = [];
let site: FixtureSite;
let db: DataSource;
let api: ApiHarness;
let apiPort: number;
let account: TestAccount;
let worker: { name: string; port: number };
/** Seconds from `podman run` to /readyz answering 200, printed at the end. */
const readyIn: Record<string, number> = {};

/** A worker container as the Deployment runs it; stopped within 30 s of SIGTERM. */
async function startWorker(label: string): Promise<{ name: string; port: number }> {
  const port = await freePort();
  const name = `scraper-worker-test-${port}`;
  started.push(name);
  const env = { WORKER_PORT: String(port), RENDER_CONCURRENCY: '4', SHUTDOWN_GRACE_MS: '25000' };
  const ms = await runUntilReady(name, port, [
    ...RESTRICTED,
    ...WORKER_SECURITY,
    ...containerEnv(env),
    WORKER_IMAGE,
  ]);
  readyIn[label] = ms / 1000;
  return { name, port };
}

const scrape = (body: Record<string, unknown>) =>
  api.http().post('/v1/scrape').set('Authorization', `Bearer ${account.liveKey}`).send(body);

beforeAll(async () => {
  site = await startFixtureSite();
  db = await runDatabase();
  apiPort = await freePort();
  const name = `scraper-api-test-${apiPort}`;
  started.push(name);
  const env = containerEnv({ PORT: String(apiPort), SHUTDOWN_GRACE_MS: '20000' });
  readyIn.api = (await runUntilReady(name, apiPort, [...RESTRICTED, ...env, API_IMAGE])) / 1000;
  api = remoteApi(`http://127.0.0.1:${apiPort}`, db);
  worker = await startWorker('worker');
}, 300_000);

afterAll(async () => {
  removeContainers(...started);
  await db?.destroy();
  await site?.close();
  const figures = Object.entries(readyIn).map(([what, s]) => `${what} ${s.toFixed(1)} s`);
  process.stdout.write(`container start-up to ready: ${figures.join(', ')}\n`);
});

it('has the schema the API image migrated to', async () => {
  expect(process.env.CONTAINER_MIGRATE_OUTPUT).toMatch(/applied \d+ migration/);
  expect(await db.showMigrations()).toBe(false);
});

it('ships neither tests nor the TypeScript toolchain and dev tools in either image', () => {
  const look = [
    'cd /app && find . -path ./node_modules -prune -o \\( -name "*.spec.js" -o -name "*.int-spec.js" -o -name "*.e2e-spec.js" -o -name "*.ts" -o -path "*/test/*" \\) -print',
    'for m in typescript ts-node @swc/core jest ts-jest eslint prettier @nestjs/cli playwright; do [ -e node_modules/$m ] && echo node_modules/$m; done',
    'true',
  ].join('; ');
  for (const image of [API_IMAGE, WORKER_IMAGE]) {
    const found = podman('run', '--rm', '--network', 'none', '--entrypoint', 'sh', image, '-c', look);
    expect({ image, found }).toEqual({ image, found: '' });
  }
});

it('runs every process of both containers as uid 1000 with no capabilities on a read-only root', () => {
  for (const name of started) {
    const procs = processesOf(name);
    expect(procs.length).toBeGreaterThan(0);
    for (const proc of procs) {
      expect(/^Uid:\s+(\d+)/m.exec(proc.status)?.[1]).toBe('1000');
      expect(/^CapEff:\s+(\S+)/m.exec(proc.status)?.[1]).toBe('0000000000000000');
      expect(/^NoNewPrivs:\s+(\d)/m.exec(proc.status)?.[1]).toBe('1');
    }
    expect(podman('inspect', '--format', '{{.HostConfig.ReadonlyRootfs}}', name)).toBe('true');
  }
});

it('creates an account through the admin API', async () => {
  account = await createAccount(api, 'enterprise');
  expect(account.liveKey).toBeTruthy();
});

it('scrapes a client-rendered page with Chromium and a static page over HTTP', async () => {
  const rendered = await scrape({ url: `${site.origin}/spa/article/2`, render: 'browser', timeout: 60_000 });
  expect(rendered.status).toBe(200);
  expect(rendered.body.error).toBeUndefined();
  expect(rendered.body.metadata.engine).not.toBe('http');
  expect(rendered.body.markdown.length).toBeGreaterThan(500);
  const fetched = await scrape({ url: `${site.origin}/static/article/3`, render: 'http', timeout: 60_000 });
  expect(fetched.status).toBe(200);
  expect(fetched.body.error).toBeUndefined();
  expect(fetched.body.metadata.engine).toBe('http');
  expect(fetched.body.markdown.length).toBeGreaterThan(500);
});

it("runs the worker's Chromium with its sandbox on", () => {
  const chromium = processesOf(worker.name).filter(isChromium);
  expect(chromium.length).toBeGreaterThan(0);
  expect(chromium.filter((p) => p.args.includes('--no-sandbox'))).toEqual([]);
  expect(logsOf(worker.name)).not.toContain('without its sandbox');
});

it('answers health and metrics from outside the containers', async () => {
  const get = async (port: number, path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: res.status, text: await res.text() };
  };
  for (const port of [apiPort, worker.port])
    for (const path of ['/healthz', '/readyz']) expect((await get(port, path)).status).toBe(200);
  const apiMetrics = await get(apiPort, '/metrics');
  expect(apiMetrics.status).toBe(200);
  expect(apiMetrics.text).toMatch(/^scraper_queue_jobs\{/m);
  const workerMetrics = await get(worker.port, '/metrics');
  expect(workerMetrics.status).toBe(200);
  expect(workerMetrics.text).toMatch(/^scraper_pages_rendered_total\{.*outcome="success"\} [1-9]/m);
});

it('loses and doubles no page when the worker gets SIGTERM mid-batch and a new one takes over', async () => {
  const urls = Array.from({ length: 40 }, (_, i) => `${site.origin}/slow?ms=300&container=${i}`);
  const { body } = await api
    .http()
    .post('/v1/scrape/batch/async')
    .set('Authorization', `Bearer ${account.liveKey}`)
    .send({ urls, render: 'browser' })
    .expect(202);
  await waitForFinishedPages(api, account.liveKey, body.job_id, 8);
  // `podman stop -t 30`: SIGTERM to tini, which hands it to node; SIGKILL only after 30 s.
  await podmanAsync('stop', '-t', '30', worker.name);
  const exit = podman('inspect', '--format', '{{.State.ExitCode}}', worker.name);
  // 0: every active job finished or was handed back within SHUTDOWN_GRACE_MS. Else the logs say why.
  expect({ exit, logs: exit === '0' ? '' : logsOf(worker.name).slice(-4000) }).toEqual({
    exit: '0',
    logs: '',
  });
  const [row] = await db.query(
    "SELECT SUM(status = 'running') AS running, SUM(status = 'pending') AS pending FROM job_pages WHERE job_id = ?",
    [body.job_id],
  );
  // Nothing left half-done, and pages left for the next worker.
  expect(Number(row.running)).toBe(0);
  expect(Number(row.pending)).toBeGreaterThan(0);
  worker = await startWorker('replacement worker');
  await expectEveryPageOnce(api, account.liveKey, body.job_id, urls);
  // Each page fetched once: none rendered by both workers, none lost.
  expect(urls.filter((u) => site.hits(u.slice(site.origin.length)) !== 1)).toEqual([]);
  process.stdout.write(`SIGTERM mid-batch: ${urls.length} pages, 0 lost, 0 fetched twice\n`);
});

it('kept all traffic on 127.0.0.1', () => {
  expect(site.leakedRequests()).toEqual([]);
});
