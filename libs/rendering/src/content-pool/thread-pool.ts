import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { PageFailure } from '../page-errors';
import type { PoolMessage } from './pool-task';

export interface ThreadPoolOptions {
  /** The task module (its default export wraps its work in `poolTask`). */
  filename: string;
  threads: number;
  /** Old-generation heap of each thread (CONTENT_HEAP_MB). */
  heapMb: number;
  /** Longest a task may run once a thread has taken it (CONTENT_TIMEOUT_MS). */
  timeoutMs: number;
}

const NO_THREADS = 'no content thread is running: the last ones failed to start';

export const TASK_OUTCOMES = ['success', 'too_complex', 'error'] as const;
export type TaskOutcome = (typeof TASK_OUTCOMES)[number];

export interface ThreadPoolStats {
  threads: number;
  /** Tasks waiting for a thread. */
  queued: number;
  /** Tasks a thread is working on. */
  busy: number;
  /** Tasks ended, by outcome: too_complex past a bound, error when the thread failed otherwise. */
  tasks: Record<TaskOutcome, number>;
  /** Threads ended for a task past a bound, by the bound. */
  replaced: { deadline: number; heap: number };
}

/**
 * A task module given as TypeScript (jest runs the sources): a thread is a fresh Node isolate that
 * knows nothing of jest's transform, so it first loads a small swc require hook. From dist/ the
 * task module is compiled JavaScript and loads as it is.
 */
function threadExecArgv(filename: string): string[] | undefined {
  if (!filename.endsWith('.ts')) return undefined;
  // swc's native addon is loaded here too, so it stays loaded: when only threads had loaded it,
  // the last one to exit unloaded it and the next thread to load it crashed the process.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('@swc/core');
  return ['--require', join(__dirname, 'ts-thread-loader.js')];
}

/**
 * A piscina pool whose tasks have a deadline and a heap cap. A task past either fails with
 * TOO_COMPLEX and costs only its thread: piscina terminates a thread whose task is aborted, and
 * Node ends a thread that runs out of its heap (ERR_WORKER_OUT_OF_MEMORY); a new thread takes its
 * place. The process's own event loop never runs the work, so it stays free for health checks,
 * metrics and SIGTERM.
 */
export class ThreadPool<T, R> {
  private readonly piscina: Piscina<PoolMessage<T>, R>;
  private busy = 0;
  private readonly tasks: Record<TaskOutcome, number> = { success: 0, too_complex: 0, error: 0 };
  private readonly replaced = { deadline: 0, heap: 0 };
  /** Tasks no thread has taken yet, ended at once should the pool be left without threads. */
  private readonly waiting = new Set<AbortController>();

  constructor(private readonly options: ThreadPoolOptions) {
    const execArgv = threadExecArgv(options.filename);
    this.piscina = new Piscina({
      filename: options.filename,
      ...(execArgv ? { execArgv } : {}),
      // Every thread stays up: starting one (loading the parser) costs more than a page.
      minThreads: options.threads,
      maxThreads: options.threads,
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
    });
    // A thread that dies fails its task; piscina also emits it here, where nobody else listens.
    this.piscina.on('error', () => undefined);
    // Piscina stops replacing threads once a new one fails to start (a broken install, a heap too
    // small to load the module): waiting tasks would never run, so they fail instead.
    this.piscina.on('workerDestroy', () =>
      setImmediate(() => {
        if (this.piscina.threads.length > 0) return;
        for (const waiting of this.waiting) waiting.abort(NO_THREADS);
      }),
    );
  }

  /** Runs one task; a task past a bound rejects with a TOO_COMPLEX PageFailure. */
  async run(input: T): Promise<R> {
    if (this.piscina.threads.length === 0) {
      this.tasks.error++;
      throw new Error(NO_THREADS);
    }
    const { port1: started, port2 } = new MessageChannel();
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    this.waiting.add(abort);
    started.once('message', () => {
      this.waiting.delete(abort);
      this.busy++;
      timer = setTimeout(() => abort.abort(), this.options.timeoutMs);
    });
    try {
      const result = await this.piscina.run(
        { input, started: port2 },
        { signal: abort.signal, transferList: [port2] },
      );
      this.tasks.success++;
      return result;
    } catch (err) {
      const failure =
        abort.signal.reason === NO_THREADS ? undefined : this.boundPassed(err, abort.signal.aborted);
      this.tasks[failure ? 'too_complex' : 'error']++;
      throw failure ?? (abort.signal.reason === NO_THREADS ? new Error(NO_THREADS) : err);
    } finally {
      this.waiting.delete(abort);
      clearTimeout(timer);
      if (timer) this.busy--;
      started.close();
    }
  }

  private boundPassed(err: unknown, timedOut: boolean): PageFailure | undefined {
    if (timedOut) {
      this.replaced.deadline++;
      return new PageFailure(
        'TOO_COMPLEX',
        `the page's content took longer than CONTENT_TIMEOUT_MS=${this.options.timeoutMs} ms to process`,
      );
    }
    if ((err as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      this.replaced.heap++;
      return new PageFailure(
        'TOO_COMPLEX',
        `the page's content needed more than CONTENT_HEAP_MB=${this.options.heapMb} MiB of memory to process`,
      );
    }
    return undefined;
  }

  stats(): ThreadPoolStats {
    return {
      threads: this.piscina.threads.length,
      queued: this.piscina.queueSize,
      busy: this.busy,
      tasks: { ...this.tasks },
      replaced: { ...this.replaced },
    };
  }

  /** Ends the threads; tasks still queued or running fail. */
  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
