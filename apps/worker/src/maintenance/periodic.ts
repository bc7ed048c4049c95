import { Logger } from '@nestjs/common';

/** Runs `task` every `everyMs` (never two at once), until stopped; errors are logged, not fatal. */
export function every(
  everyMs: number,
  logger: Logger,
  task: () => Promise<void>,
): { stop: () => Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = task()
      .catch((err: unknown) => logger.error({ err }, 'periodic task failed'))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, everyMs);
  tick();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
