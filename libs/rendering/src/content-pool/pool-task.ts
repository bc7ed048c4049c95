import type { MessagePort } from 'node:worker_threads';

/** What the pool posts to a thread: the task's input and a port to say the task has started. */
export interface PoolMessage<T> {
  input: T;
  started: MessagePort;
}

/**
 * A thread's task function for ThreadPool. The deadline runs from the moment the thread takes the
 * task (not from when it was queued), so the thread says so first, then does the work.
 */
export function poolTask<T, R>(work: (input: T) => R): (message: PoolMessage<T>) => R {
  return ({ input, started }) => {
    started.postMessage(null);
    started.close();
    return work(input);
  };
}
