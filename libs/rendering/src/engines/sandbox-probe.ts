import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs } from './chromium';
import { browserEnvironment } from './containment';

const PROBE_MS = 30_000;

/**
 * Starts the browser once, sandboxed, on a blank page. Where the runtime refuses the sandbox (the
 * default seccomp profile of containerd or Docker, no user namespaces), the worker then stops at
 * start with Chromium's own reason instead of staying ready while every page fails.
 */
export async function probeSandbox(executablePath: string): Promise<void> {
  const profile = await mkdtemp(join(tmpdir(), 'sandbox-probe-'));
  const args = [
    ...chromiumArgs(undefined, true),
    '--headless',
    `--user-data-dir=${profile}`,
    '--dump-dom',
    'about:blank',
  ];
  try {
    await new Promise<void>((resolve, reject) =>
      execFile(
        executablePath,
        args,
        { env: browserEnvironment(process.env), timeout: PROBE_MS },
        (err, _stdout, stderr) => {
          // A missing browser is not the sandbox's doing: the first launch reports it, as before.
          if (!err || (err as NodeJS.ErrnoException).code === 'ENOENT') return resolve();
          const lines = stderr.split('\n').filter((line) => line.trim());
          const reason =
            lines.find((line) => /sandbox|namespace|chroot/i.test(line)) ?? lines.at(-1) ?? err.message;
          reject(
            new Error(
              `Chromium cannot start with its sandbox here (${reason.trim()}): the container's seccomp ` +
                'profile or the node must allow user namespaces (README, "Chromium\'s sandbox"); ' +
                'CHROMIUM_NO_SANDBOX=1 runs pages unsandboxed instead',
            ),
          );
        },
      ),
    );
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}
