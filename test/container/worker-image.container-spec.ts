import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/fixture-site';
import { createAccount, startApi, type ApiHarness, type TestAccount } from '../support/api-harness';
import { freePort, waitForHttp } from '../support/processes';
import {
  K8S_PROFILE,
  RESTRICTED,
  WORKER_IMAGE as IMAGE,
  containerEnv,
  isChromium,
  podman,
  processesOf,
  removeContainers,
  type Proc,
} from './podman';

// The worker image as Kubernetes runs it (k8s/worker-deployment.yaml): uid 1000, read-only root,
// no capabilities, no privilege escalation, under a seccomp profile. It must render pages through
// both engines with Chromium's sandbox on. `npm run test:containers` builds the image first.

/**
 * containerd's and Docker's default profile where the sandbox is concerned: no unshare, clone only
 * without namespace flags, chroot only with CAP_SYS_CHROOT (dropped here).
 */
function containerdLikeProfile(): string {
  const profile = JSON.parse(readFileSync(K8S_PROFILE, 'utf8')) as { syscalls: { names: string[] }[] };
  for (const rule of profile.syscalls)
    rule.names = rule.names.filter((name) => !['clone', 'clone3', 'unshare', 'chroot'].includes(name));
  profile.syscalls = [
    ...profile.syscalls.filter((rule) => rule.names.length > 0),
    // CLONE_NEWNS | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET | NEWCGROUP must all be clear.
    {
      names: ['clone'],
      action: 'SCMP_ACT_ALLOW',
      args: [{ index: 0, value: 0x7e020000, valueTwo: 0, op: 'SCMP_CMP_MASKED_EQ' }],
    } as never,
    { names: ['clone3'], action: 'SCMP_ACT_ERRNO', errnoRet: 38 } as never,
  ];
  const file = join(mkdtempSync(join(tmpdir(), 'seccomp-')), 'containerd-like.json');
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

/** The seccomp profiles the pod may run under: podman's (CRI-O's) default, and the one k8s/ ships. */
const PROFILES = {
  'podman default (SYS_CHROOT kept)': ['--cap-add', 'SYS_CHROOT'],
  'k8s/seccomp/scraper-chromium.json': ['--security-opt', `seccomp=${K8S_PROFILE}`],
};

/** The worker's variables for the container: the run's stores, production mode. */
const workerEnv = (port: number) => containerEnv({ WORKER_PORT: String(port) });

const field = (proc: Proc, name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(proc.status)?.[1];
const chromiumType = (proc: Proc) => /--type=(\S+)/.exec(proc.args.join(' '))?.[1];

let site: FixtureSite;
let api: ApiHarness;
let account: TestAccount;

beforeAll(async () => {
  // Fails (never skips) where podman or the image is missing.
  podman('image', 'exists', IMAGE);
  site = await startFixtureSite();
  api = await startApi();
  account = await createAccount(api, 'pro');
});

afterAll(async () => {
  await api?.close();
  await site?.close();
});

describe.each(Object.entries(PROFILES))('the worker image under %s', (_profile, security) => {
  let name: string;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    name = `scraper-worker-test-${port}`;
    podman('run', ...['-d', '--name', name, ...RESTRICTED, ...security], ...workerEnv(port), IMAGE);
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, 60_000);
  });

  afterAll(() => {
    removeContainers(name);
  });

  it.each(['playwright', 'puppeteer'])('renders a script-built page through %s', async (engine) => {
    const res = await api
      .http()
      .post('/v1/scrape')
      .set('Authorization', `Bearer ${account.liveKey}`)
      .send({ url: `${site.origin}/spa/article/2`, render: 'browser', engine, timeout: 30_000 });
    expect(res.status).toBe(200);
    expect(res.body.error).toBeUndefined();
    expect(res.body.metadata.engine).toBe(engine);
    expect(res.body.markdown.length).toBeGreaterThan(500);
  });

  it("runs Chromium with its sandbox on and none of the worker's secrets", () => {
    const procs = processesOf(name);
    const init = procs.find((p) => p.args[0] === '/usr/bin/tini')!;
    const browsers = procs.filter(
      (p) => isChromium(p) && !chromiumType(p) && !p.args[0].includes('crashpad'),
    );
    const renderers = procs.filter((p) => isChromium(p) && chromiumType(p) === 'renderer');
    // One browser an engine; the Playwright pool keeps its tab, so its renderer is still there.
    expect(browsers.length).toBeGreaterThanOrEqual(2);
    expect(renderers.length).toBeGreaterThan(0);
    for (const browser of browsers) {
      expect(browser.args).not.toContain('--no-sandbox');
      const environ = readFileSync(`/proc/${browser.pid}/environ`, 'utf8');
      for (const secret of ['DATABASE_URL', 'REDIS_URL', 'KEY_HASH_SECRET', 'SECRETS_ENCRYPTION_KEY'])
        expect(environ).not.toContain(`${secret}=`);
    }
    for (const renderer of renderers) {
      expect(renderer.args).not.toContain('--no-sandbox');
      // The zygote's namespaces (user, pid, net) and Chromium's own seccomp filter on top of the
      // container's.
      for (const kind of ['user', 'pid', 'net']) expect(renderer.ns(kind)).not.toBe(init.ns(kind));
      expect(Number(field(renderer, 'Seccomp_filters'))).toBeGreaterThan(
        Number(field(init, 'Seccomp_filters')),
      );
      expect(field(renderer, 'NoNewPrivs')).toBe('1');
    }
    // Neither the start warning nor a launch failure.
    const logs = podman('logs', name);
    expect(logs).not.toContain('without its sandbox');
    expect(logs).not.toMatch(/No usable sandbox|Failed to move to new namespace/);
  });
});

describe("a runtime that refuses Chromium's sandbox", () => {
  it('stops the worker at start, saying why, instead of failing every page', async () => {
    const port = await freePort();
    const security = ['--security-opt', `seccomp=${containerdLikeProfile()}`];
    let output = '';
    try {
      podman('run', '--rm', ...RESTRICTED, ...security, ...workerEnv(port), IMAGE);
    } catch (err) {
      const { stdout, stderr } = err as { stdout: string; stderr: string };
      output = stdout + stderr;
    }
    expect(output).toMatch(/Chromium cannot start with its sandbox here \(.*(namespace|sandbox|chroot)/i);
  });
});
