import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { WorkerEnv } from '@app/config';
import type { PdfInput, PdfLimits } from '../content/pdf-content';
import type { ContentAnswer, ContentTask } from './content-thread';
import { ThreadPool, type ThreadPoolStats } from './thread-pool';

export type ContentPoolEnv = Pick<WorkerEnv, 'CONTENT_THREADS' | 'CONTENT_HEAP_MB' | 'CONTENT_TIMEOUT_MS'> &
  Partial<Pick<WorkerEnv, 'LINKS_MAX_PER_PAGE' | 'PDF_MAX_PAGES' | 'PDF_MAX_INFLATED_BYTES'>>;

/** A PDF to convert: its bytes, where it came from, the formats asked for. */
export type PdfTask = Omit<PdfInput, 'limits' | 'maxLinks'>;

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
  private readonly pdfLimits: PdfLimits;

  constructor(env: ContentPoolEnv, cpus = availableParallelism()) {
    this.maxLinks = env.LINKS_MAX_PER_PAGE;
    // The schema's defaults where a caller (a bench, a test) sets only the thread bounds.
    const { PDF_MAX_PAGES, PDF_MAX_INFLATED_BYTES } = new WorkerEnv();
    this.pdfLimits = {
      maxPages: env.PDF_MAX_PAGES ?? PDF_MAX_PAGES,
      maxInflatedBytes: env.PDF_MAX_INFLATED_BYTES ?? PDF_MAX_INFLATED_BYTES,
    };
    this.pool = new ThreadPool({
      filename: CONTENT_THREAD,
      threads: env.CONTENT_THREADS ?? cpus,
      heapMb: env.CONTENT_HEAP_MB,
      timeoutMs: env.CONTENT_TIMEOUT_MS,
    });
  }

  /** Rejects with a TOO_COMPLEX PageFailure when the page passes a bound. */
  run(task: Extract<ContentTask, { input: unknown }>): Promise<ContentAnswer> {
    return this.pool.run({ ...task, input: { ...task.input, maxLinks: this.maxLinks } });
  }

  /** A PDF's formats, under the same bounds as a page's (the thread's heap and deadline) and PDF_MAX_*. */
  pdf(task: PdfTask): Promise<ContentAnswer> {
    return this.pool.run({ pdf: { ...task, limits: this.pdfLimits, maxLinks: this.maxLinks } });
  }

  stats(): ThreadPoolStats {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
