import { ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';
import { freePort } from './processes';

export interface OwnRedis {
  url: string;
  port: number;
  /** SIGKILL then a fresh, empty server on the same port: a Redis restart that kept nothing. */
  restart: () => Promise<void>;
  /** The running redis-server's process, for benchmarks that count its CPU and memory. */
  readonly pid: number;
  stop: () => Promise<void>;
}

/** A redis-server of the test's own on a free loopback port, for tests that flush or kill it. */
export async function startRedisServer(): Promise<OwnRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}/0`;
  let child: ChildProcess;

  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    for (;;) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      // A refused connect while the server starts is expected: connect() rejects, no need to log it.
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.ping();
        return;
      } catch {
        if (Date.now() > deadline) throw new Error('redis-server did not start');
        await new Promise((r) => setTimeout(r, 50));
      } finally {
        probe.disconnect();
      }
    }
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });

  await start();
  return {
    url,
    port,
    restart: async () => {
      await stop();
      await start();
    },
    get pid() {
      return child.pid!;
    },
    stop,
  };
}
