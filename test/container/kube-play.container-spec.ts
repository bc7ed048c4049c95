import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DataSource } from 'typeorm';
import { parseAllDocuments, stringify } from 'yaml';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/fixture-site';
import { createAccount, type ApiHarness } from '../support/api-harness';
import { REPO_ROOT, waitForHttp } from '../support/processes';
import { K8S_PROFILE, STORE_VARIABLES, isChromium, logsOf, podman, podmanAsync, processesOf } from './podman';
import { remoteApi, runDatabase } from './remote-api';

/**
 * The API and worker Deployments of k8s/ under `podman kube play`, through the overlay
 * docker/kube-play (local images, host network, this machine's MariaDB and Redis): the run's
 * stores go in as the Secret `scraper-secrets` (a podman secret) and the ConfigMap's REDIS_PREFIX.
 * The pods keep the manifests' securityContext, seccomp profile and ports (3000, 3001).
 */
const PODS = { api: 'scraper-api-pod-0', worker: 'scraper-worker-pod-0' };
const CONTAINERS = { api: `${PODS.api}-api`, worker: `${PODS.worker}-worker` };
const VOLUMES = ['scraper-api-tmp', 'scraper-worker-tmp', 'scraper-worker-dshm'];
const SECRET = 'scraper-secrets';
const API = 'http://127.0.0.1:3000';
const WORKER = 'http://127.0.0.1:3001';

let dir: string;
let grace: Record<string, number>;
let site: FixtureSite;
let db: DataSource;
let api: ApiHarness;
let readySeconds: number;

/** The overlay rendered by kubectl, with the run's Redis prefix; each Deployment's grace period. */
function renderOverlay(): { yaml: string; grace: Record<string, number> } {
  const rendered = execFileSync('kubectl', ['kustomize', join(REPO_ROOT, 'docker/kube-play')], {
    encoding: 'utf8',
  });
  const docs = parseAllDocuments(rendered).map((d) => d.toJS());
  const periods: Record<string, number> = {};
  for (const doc of docs) {
    if (doc.kind === 'ConfigMap' && doc.metadata.name === 'scraper-config')
      doc.data.REDIS_PREFIX = process.env.REDIS_PREFIX;
    if (doc.kind === 'Deployment')
      periods[doc.metadata.name] = doc.spec.template.spec.terminationGracePeriodSeconds;
  }
  return { yaml: docs.map((d) => stringify(d)).join('---\n'), grace: periods };
}

/**
 * podman 4's secretKeyRef reads a podman secret holding the Secret's `data` as JSON (base64
 * values): what `kubectl create secret generic ... -o json` has under .data.
 */
function createSecret(): void {
  const data = Object.fromEntries(
    STORE_VARIABLES.filter((name) => name !== 'REDIS_PREFIX').map((name) => [
      name,
      Buffer.from(process.env[name]!).toString('base64'),
    ]),
  );
  const file = join(dir, 'secret.json');
  writeFileSync(file, JSON.stringify(data), { mode: 0o600 });
  podman('secret', 'create', SECRET, file);
  rmSync(file);
}

/** Removes the pods, their volumes and the secret, whichever exist (none is an error). */
function tearDown(): void {
  const quietly = (...args: string[]) => {
    try {
      podman(...args);
    } catch {
      // not there
    }
  };
  quietly('pod', 'rm', '-f', '-i', '-t', '5', ...Object.values(PODS));
  for (const volume of VOLUMES) quietly('volume', 'rm', '-f', volume);
  quietly('secret', 'rm', SECRET);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kube-play-'));
  for (const url of [API, WORKER]) {
    const taken = await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    );
    if (taken) throw new Error(`${url} already answers: the pods' host ports must be free`);
  }
  site = await startFixtureSite();
  db = await runDatabase();
  api = remoteApi(API, db);
  const overlay = renderOverlay();
  grace = overlay.grace;
  const kubeFile = join(dir, 'scraper.yaml');
  writeFileSync(kubeFile, overlay.yaml);
  tearDown();
  createSecret();
  const started = Date.now();
  // The overlay names the profile `localhost/scraper-chromium.json`: k8s/seccomp is its root.
  podman('kube', 'play', '--seccomp-profile-root', dirname(K8S_PROFILE), kubeFile);
  try {
    await Promise.all([waitForHttp(`${API}/readyz`, 120_000), waitForHttp(`${WORKER}/readyz`, 120_000)]);
  } catch (err) {
    const logs = Object.values(CONTAINERS).map((c) => `${c}:\n${logsOf(c)}`);
    throw new Error(`${(err as Error).message}\n${logs.join('\n')}`);
  }
  readySeconds = (Date.now() - started) / 1000;
}, 300_000);

afterAll(async () => {
  tearDown();
  await db?.destroy();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (readySeconds) process.stdout.write(`kube play to both pods ready: ${readySeconds.toFixed(1)} s\n`);
});

it('runs both pods as the manifests say: uid 1000, no capabilities, read-only root, seccomp', () => {
  for (const container of Object.values(CONTAINERS)) {
    const procs = processesOf(container);
    expect(procs.length).toBeGreaterThan(0);
    for (const proc of procs) {
      expect(/^Uid:\s+(\d+)/m.exec(proc.status)?.[1]).toBe('1000');
      expect(/^CapEff:\s+(\S+)/m.exec(proc.status)?.[1]).toBe('0000000000000000');
      expect(/^NoNewPrivs:\s+(\d)/m.exec(proc.status)?.[1]).toBe('1');
      expect(/^Seccomp:\s+(\d)/m.exec(proc.status)?.[1]).toBe('2');
    }
    expect(podman('inspect', '--format', '{{.HostConfig.ReadonlyRootfs}}', container)).toBe('true');
  }
  // The worker being ready at all says it runs under k8s/seccomp/scraper-chromium.json: under
  // podman's default profile, with no capability, Chromium's sandbox cannot chroot and the worker
  // stops at start (worker-image.container-spec.ts).
});

it('serves a scrape through the pods, Chromium sandboxed', async () => {
  const account = await createAccount(api, 'pro');
  const res = await api
    .http()
    .post('/v1/scrape')
    .set('Authorization', `Bearer ${account.liveKey}`)
    .send({ url: `${site.origin}/spa/article/4`, render: 'browser', timeout: 60_000 });
  expect(res.status).toBe(200);
  expect(res.body.error).toBeUndefined();
  expect(res.body.markdown.length).toBeGreaterThan(500);
  const chromium = processesOf(CONTAINERS.worker).filter(isChromium);
  expect(chromium.length).toBeGreaterThan(0);
  expect(chromium.filter((p) => p.args.includes('--no-sandbox'))).toEqual([]);
  expect((await fetch(`${WORKER}/metrics`)).status).toBe(200);
  expect(site.leakedRequests()).toEqual([]);
});

it("terminates both pods cleanly within the Deployments' grace periods", async () => {
  // podman keeps its own stop timeout (10 s), not terminationGracePeriodSeconds: pass the latter.
  for (const [app, pod] of Object.entries(PODS)) {
    await podmanAsync('pod', 'stop', '-t', String(grace[`scraper-${app}`]), pod);
    const container = CONTAINERS[app as keyof typeof CONTAINERS];
    expect({ container, exit: podman('inspect', '--format', '{{.State.ExitCode}}', container) }).toEqual({
      container,
      exit: '0',
    });
  }
});
