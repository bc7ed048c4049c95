import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../../../test/fixtures/fixture-paths';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real `bin/scraper`, as a user's shell runs it. */
export const CLI_BIN = path.join(repoRoot(), 'bin/scraper');

/**
 * A child's environment: the stores' URLs pointing at closed ports and none of the service's
 * secrets (the CLI must need none of them), loopback 127.0.0.1 only; `env` on top.
 */
export function cliEnv(env: NodeJS.ProcessEnv = {}): Record<string, string> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: 'mysql://root@127.0.0.1:1/nothing',
    REDIS_URL: 'redis://127.0.0.1:1/0',
    NET_EGRESS_MODE: 'allowlist',
    NET_ALLOW_CIDRS: '127.0.0.1/32',
    ...env,
  };
  for (const secret of ['KEY_HASH_SECRET', 'SECRETS_ENCRYPTION_KEY', 'ADMIN_TOKEN', 'SCRAPER_API_KEY']) {
    if (!(secret in env)) delete childEnv[secret];
  }
  return Object.fromEntries(
    Object.entries(childEnv).filter((e): e is [string, string] => e[1] !== undefined),
  );
}

/** Runs the bin with stdout and stderr piped, in cliEnv(env). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }),
    );
  });
}

/** Each line of a run's stdout, parsed as JSON. */
export const jsonLines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
