import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');

// Below Linux's ephemeral range (32768-60999): the OS hands those out as the local ports of
// outgoing connections (Chromium's, Redis clients'), and one of them taking a port between our
// probe and the child's listen() made a worker fail with EADDRINUSE.
const PORT_RANGE = { from: 20000, to: 32767 };
const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((res) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => res(false));
    // No host: the unspecified address, so a listener on any interface counts as taken.
    srv.listen(port, () => srv.close(() => res(true)));
  });
}

/** A port nobody listens on right now, and not one this process has handed out before. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from + 1));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${PORT_RANGE.from}-${PORT_RANGE.to}`);
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

/**
 * Polls a URL until it answers 200 or the deadline passes. The default leaves room for a Nest app's
 * start on a loaded 2-core machine (three workers starting at once there took past 20 s).
 */
export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'not listening';
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = `${res.status} ${(await res.text()).slice(0, 300)}`;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${last})`);
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
