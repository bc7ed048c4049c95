import { threadId } from 'node:worker_threads';
import { poolTask } from '../src/content-pool/pool-task';

/** A ThreadPool task module for the pool's own tests: work that never ends or never stops growing. */
export type HostileTask = 'loop' | 'allocate' | 'echo';

function hostile(task: HostileTask): number {
  if (task === 'loop') for (;;);
  if (task === 'allocate') {
    const kept: unknown[][] = [];
    for (;;) kept.push(new Array<unknown>(100_000).fill(kept.length));
  }
  return threadId;
}

export default poolTask(hostile);
