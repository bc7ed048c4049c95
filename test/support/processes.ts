import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  /** The exit code, or the signal's name when a signal ended it. */
  exited: Promise<number | string | null>;
}

/** Runs a compiled entry point (npm test builds first) with the given environment. */
export function runCompiled(entry: string, env: NodeJS.ProcessEnv): RunningProcess {
  const child = spawn(process.execPath, [resolve(REPO_ROOT, 'dist', entry)], {
    env,
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string | null>((r) =>
    child.once('exit', (code, signal) => r(code ?? signal)),
  );
  return { child, output: () => out, exited };
}

/** Polls a URL until it answers 200 or the deadline passes. */
export async function waitForHttp(url: string, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A worker as a real child process (from dist) on the run's environment plus `overrides`, ready
 * once its /readyz answers.
 */
export function startWorkerProcess(overrides: NodeJS.ProcessEnv): Promise<RunningProcess & { port: number }> {
  return startApp('worker', 'WORKER_PORT', overrides);
}

/** The API as a real child process, like startWorkerProcess; `port` is where it listens. */
export function startApiProcess(overrides: NodeJS.ProcessEnv): Promise<RunningProcess & { port: number }> {
  return startApp('api', 'PORT', overrides);
}

async function startApp(
  app: 'api' | 'worker',
  portVariable: string,
  overrides: NodeJS.ProcessEnv,
): Promise<RunningProcess & { port: number }> {
  const port = await freePort();
  const proc = runCompiled(`apps/${app}/src/main.js`, {
    ...process.env,
    LOG_LEVEL: 'warn',
    ...overrides,
    [portVariable]: String(port),
  });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/readyz`);
  } catch (err) {
    proc.child.kill('SIGKILL');
    throw new Error(`${app} never became ready: ${(err as Error).message}\n${proc.output()}`);
  }
  return { ...proc, port };
}
