import { setTimeout as sleep } from 'node:timers/promises';

/**
 * On the first SIGTERM or SIGINT runs `drain` and exits with the code it gives. Later signals are
 * ignored: under `npm start` a Ctrl-C reaches an app twice (from the terminal and from the start
 * script), and the drain is bounded by its own grace period anyway.
 */
export function exitAfterDrain(drain: (signal: NodeJS.Signals) => Promise<number>): void {
  let draining = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (draining) return;
    draining = true;
    drain(signal).then(
      (code) => process.exit(code),
      (err: unknown) => {
        process.stderr.write(
          `shutdown failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
        );
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** True when `work` settled within `ms`; false when the time ran out first (`work` keeps running). */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  const timeout = new AbortController();
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      sleep(ms, false, { signal: timeout.signal }),
    ]);
  } finally {
    timeout.abort();
  }
}
