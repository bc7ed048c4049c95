import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, waitForHttp } from '../support/processes';

/** The images scripts/test-containers.sh builds (or reuses from podman's layer cache). */
export const API_IMAGE = process.env.API_IMAGE ?? 'scraper-api:local';
export const WORKER_IMAGE = process.env.WORKER_IMAGE ?? 'scraper-worker:local';
export const K8S_PROFILE = join(REPO_ROOT, 'k8s/seccomp/scraper-chromium.json');

/**
 * Every container a test starts carries this label; scripts/test-containers.sh removes whatever
 * still has it when the run ends, however it ended.
 */
export const TEST_LABEL = 'scraper-container-test';

export const podman = (...args: string[]) =>
  execFileSync('podman', args, { encoding: 'utf8', timeout: 240_000, stdio: 'pipe' }).trim();

/**
 * For what takes a while (stopping a container): the fixture site runs in the test process and
 * must go on answering the pages in flight meanwhile, which a synchronous call would stop.
 */
export const podmanAsync = async (...args: string[]) =>
  (await promisify(execFile)('podman', args, { encoding: 'utf8', timeout: 240_000 })).stdout.trim();

/**
 * A container as the Deployments run theirs: uid 1000, read-only root with a tmpfs /tmp, no
 * capabilities, no privilege escalation, on the host network (the machine's MariaDB and Redis on
 * 127.0.0.1, and nothing but loopback). `security` adds the seccomp profile: podman's default is
 * the API's RuntimeDefault; the worker runs under K8S_PROFILE.
 */
export const RESTRICTED = [
  ...['--network', 'host', '--user', '1000:1000', '--read-only', '--tmpfs', '/tmp'],
  ...['--cap-drop', 'ALL', '--security-opt', 'no-new-privileges', '--label', TEST_LABEL],
];
export const WORKER_SECURITY = ['--security-opt', `seccomp=${K8S_PROFILE}`, '--shm-size', '256m'];

/** The secrets and store settings of the run (test/global-setup.ts made them), as the Secret holds them. */
export const STORE_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_PREFIX',
  'KEY_HASH_SECRET',
  'SECRETS_ENCRYPTION_KEY',
  'ADMIN_TOKEN',
] as const;

/** `-e NAME=value` for the run's stores and secrets, production mode, loopback allowed explicitly. */
export function containerEnv(extra: Record<string, string>): string[] {
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    HOME: '/tmp',
    NET_EGRESS_MODE: 'allowlist',
    NET_ALLOW_CIDRS: '127.0.0.1/32',
    AUTH_FAIL_LIMIT_PER_MIN: '100000',
    ...Object.fromEntries(STORE_VARIABLES.map((name) => [name, process.env[name]!])),
    ...extra,
  };
  return Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
}

/**
 * Starts a detached container and waits for its /readyz on `port`; returns the milliseconds from
 * `podman run` to ready. On a failed start the container's logs are in the error.
 */
export async function runUntilReady(name: string, port: number, args: string[]): Promise<number> {
  const started = Date.now();
  podman('run', '-d', '--name', name, ...args);
  try {
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, 120_000);
  } catch (err) {
    throw new Error(`${name} never became ready: ${(err as Error).message}\n${logsOf(name)}`);
  }
  return Date.now() - started;
}

export function logsOf(name: string): string {
  try {
    return podman('logs', name);
  } catch (err) {
    return `(no logs: ${(err as Error).message})`;
  }
}

/** Removes containers whatever state they are in; a missing one is not an error. */
export function removeContainers(...names: string[]): void {
  for (const name of names) if (name) podman('rm', '-f', '-i', '-t', '5', name);
}

export interface Proc {
  pid: number;
  args: string[];
  status: string;
  ns: (kind: string) => string;
}

/** Every process in the container whose init is `root`, read from the host's /proc. */
export function containerProcesses(root: number): Proc[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const inside = (pid: number): boolean => pid === root || (pid > 1 && inside(parent.get(pid) ?? 0));
  return [...parent.keys()].filter(inside).flatMap((pid) => {
    try {
      return [
        {
          pid,
          args: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'),
          status: readFileSync(`/proc/${pid}/status`, 'utf8'),
          ns: (kind: string) => readlinkSync(`/proc/${pid}/ns/${kind}`),
        },
      ];
    } catch {
      return [];
    }
  });
}

/** The processes of a running container by name. */
export const processesOf = (name: string) =>
  containerProcesses(Number(podman('inspect', '--format', '{{.State.Pid}}', name)));

export const isChromium = (proc: Proc) => proc.args[0].includes('chromium');
