import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import type { WorkerEnv } from '@app/config';
import type { ContentAnswer, ContentTask } from './content-thread';
import { ThreadPool, type ThreadPoolStats } from './thread-pool';

export type ContentPoolEnv = Pick<WorkerEnv, 'CONTENT_THREADS' | 'CONTENT_HEAP_MB' | 'CONTENT_TIMEOUT_MS'> &
  Partial<Pick<WorkerEnv, 'LINKS_MAX_PER_PAGE'>>;

/** content-thread.ts from the sources (jest), content-thread.js from dist/. */
const CONTENT_THREAD = join(__dirname, `content-thread${extname(__filename)}`);

/**
 * Where every page's content work runs: parsing, the `render: auto` decision, main content,
 * markdown, text, links and metadata, in worker threads with a heap cap and a deadline each
 * (docs/decisions.md, "Content threads"). One thread per CPU the worker may use (`cpus`: its
 * cgroup's quota within os.availableParallelism()) unless CONTENT_THREADS says otherwise.
 */
export class ContentPool {
  private readonly pool: ThreadPool<ContentTask, ContentAnswer>;
  private readonly maxLinks: number | undefined;

  constructor(env: ContentPoolEnv, cpus = availableParallelism()) {
    this.maxLinks = env.LINKS_MAX_PER_PAGE;
    this.pool = new ThreadPool({
      filename: CONTENT_THREAD,
      threads: env.CONTENT_THREADS ?? cpus,
      heapMb: env.CONTENT_HEAP_MB,
      timeoutMs: env.CONTENT_TIMEOUT_MS,
    });
  }

  /** Rejects with a TOO_COMPLEX PageFailure when the page passes a bound. */
  run(task: ContentTask): Promise<ContentAnswer> {
    return this.pool.run({ ...task, input: { ...task.input, maxLinks: this.maxLinks } });
  }

  stats(): ThreadPoolStats {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
