import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { freePort } from './processes';

export interface OwnMariaDb {
  /** A DATABASE_URL for `database` on this server. */
  url: (database: string) => string;
  port: number;
  /** SIGKILL, as a crashed or evicted database pod would go. */
  kill: () => Promise<void>;
  /** Starts it again on the same port and data directory. */
  start: () => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * A mariadbd of the test's own, on a temporary data directory and a free loopback port, for tests
 * that kill and restart the database. Root has an empty password, as on the machine's own server.
 */
export async function startMariaDbServer(): Promise<OwnMariaDb> {
  const dir = await mkdtemp(join(tmpdir(), 'scraper-mariadb-'));
  const port = await freePort();
  await promisify(execFile)('chown', ['mysql:mysql', dir]);
  await promisify(execFile)('mariadb-install-db', [
    '--no-defaults',
    `--datadir=${dir}`,
    '--user=mysql',
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ]);
  let child: ChildProcess | null = null;

  const start = async () => {
    child = spawn(
      'mariadbd',
      [
        '--no-defaults',
        `--datadir=${dir}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(dir, 'mysqld.sock')}`,
        '--user=mysql',
        '--skip-log-bin',
        '--innodb-buffer-pool-size=64M',
        '--max-connections=500',
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const conn = await createConnection({ host: '127.0.0.1', port, user: 'root' });
        await conn.end();
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`mariadbd on port ${port} did not start`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const kill = () =>
    new Promise<void>((resolve) => {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return resolve();
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });

  await start();
  return {
    url: (database) => `mysql://root@127.0.0.1:${port}/${database}`,
    port,
    kill,
    start,
    stop: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
