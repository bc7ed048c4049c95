import { Injectable } from '@nestjs/common';
import { JobLifecycle, JobQueries, PageProgress, TERMINAL_JOB_STATUSES } from '@app/jobs';
import { JobProducer, QueueAdapter } from '@app/queues';
import type { PagesData, PageResult, ScrapeOptions } from '@app/queue-contracts';
import { Draining } from '../lifecycle/draining';
import { QueueSlots } from '../lifecycle/queue-slots';
import { JobProgress } from './job-progress.service';
import type { Lease } from './in-flight-limits';
import { LIMITED_RETRY_MS, PageStep } from './page-step';
import { PAGES_PER_JOB, type QueueHead, handOut, nextChunkStart, shares, windowFor } from './page-window';

/** Jobs whose pages' engine a worker keeps in mind (handOut's `quick`). */
const RECENT_JOBS = 1_000;

/**
 * Renders a job's pages [fromIdx, toIdx) one at a time, each through PageStep. Between pages it
 * gives way: to a waiting sync scrape and to a shutdown (by handing the rest of the chunk back to
 * the queue), and to the account's and the host's in-flight limits. It shares what it has left
 * out as pieces when slots would otherwise idle: among this worker's idle slots when the queue is
 * empty (a plan's small window, a batch's last chunks), and as single pages once its job's last
 * chunks are running and only pieces wait (handOut), so a batch's tail keeps every slot busy. A
 * finished chunk queues the chunk a window ahead, so a huge batch keeps only a few jobs in Redis
 * and other accounts' work interleaves with it.
 */
@Injectable()
export class PageRunner {
  /** Whether the latest page this worker rendered of each of its last RECENT_JOBS jobs came over http. */
  private readonly overHttp = new Map<string, boolean>();

  constructor(
    private readonly jobs: JobQueries,
    private readonly pages: PageProgress,
    private readonly lifecycle: JobLifecycle,
    private readonly progress: JobProgress,
    private readonly step: PageStep,
    private readonly producer: JobProducer,
    private readonly queues: QueueAdapter,
    private readonly draining: Draining,
    private readonly slots: QueueSlots,
  ) {}

  async run({ jobId, fromIdx, toIdx, piece }: PagesData): Promise<void> {
    const job = await this.jobs.find(jobId);
    if (!job || TERMINAL_JOB_STATUSES.includes(job.status)) return;
    // The job's running mark is needed once: a job found running already has it.
    const [, maxInFlight, todo] = await Promise.all([
      job.status === 'queued' && this.lifecycle.markRunning(jobId),
      this.progress.maxConcurrentPages(job.accountId),
      this.pages.unfinished(jobId, fromIdx, toIdx),
    ]);
    // A page is stored while the next one renders (a commit is 10-25 ms here, a static page's
    // whole render about as much); at most one store is in flight, and every exit waits for it, so
    // a failed store still fails the chunk (Bull runs it again) before anything else is queued.
    let storing: Promise<unknown> = Promise.resolve();
    const store = (result: PageResult, hold: Lease) => {
      storing = this.step.store(job, result).finally(() => hold.release());
      // Awaited at the next page or on the way out; marked handled so a failure waits for that.
      storing.catch(() => undefined);
    };
    // Lease releases and split-off pieces are not waited for page by page (a lease's next page
    // goes out on the same Redis connection after its release, so Redis frees the slot first);
    // every exit waits for them all.
    let background: Promise<unknown> = Promise.resolve();
    const behind = (work: Promise<unknown>) => {
      background = Promise.all([background, work]);
      background.catch(() => undefined);
    };
    const settled = () => Promise.all([storing, background]);
    // This run ends before todo[end]; a split moves it down.
    let end = todo.length;
    // The chunk this run's chunk queues when it ends. None (past the end): the job's pages not yet
    // taken are all in runs already going. A piece is judged by the chunk it came from (a piece
    // split off mid-batch has chunks to come).
    const options = job.options as ScrapeOptions;
    const onSession = Boolean(options.session_id);
    const nextChunk = nextChunkStart(fromIdx, windowFor(maxInFlight, onSession));
    const lastWindow = nextChunk >= job.total;
    const endIdx = () => todo[end]?.idx ?? toIdx;
    const handBack = async (idx: number, delay: number) => {
      await settled();
      await this.requeue({ jobId, fromIdx: idx, toIdx: endIdx(), piece }, delay);
    };
    try {
      for (let n = 0; n < end; n++) {
        const page = todo[n];
        // A shutting-down worker keeps only the page it is rendering; another worker takes the rest.
        if (this.draining.active) return await handBack(page.idx, 0);
        // All at once: one round trip a page. A page another run holds is that run's to finish.
        const [head, lease, hold] = await Promise.all([
          this.queueHead(),
          this.step.lease(job, page.url, maxInFlight),
          this.step.hold(job, page.idx),
        ]);
        if (!hold) {
          if (lease) behind(lease.release());
          continue;
        }
        if (n > 0 && head === 'sync') {
          await Promise.all([lease?.release(), hold.release()]);
          return await handBack(page.idx, 0);
        }
        if (!lease) {
          await hold.release();
          return await handBack(page.idx, LIMITED_RETRY_MS);
        }
        let result: PageResult | undefined;
        try {
          const [split, takers] = handOut({
            head,
            n,
            end,
            idle: this.slots.idle('render'),
            spare: lease.spare,
            lastWindow,
            // Until this worker has seen a page of the job, its render mode says.
            quick: options.render !== 'browser' && this.overHttp.get(jobId) !== false,
          });
          if (takers > 0) {
            const last = endIdx();
            for (const [from, to] of shares(split, end, takers)) {
              const toIdx = to < end ? todo[to].idx : last;
              behind(this.requeue({ jobId, fromIdx: todo[from].idx, toIdx, piece: true }, 0));
            }
            end = split;
          }
          // The render does not wait for the running mark's commit. A refused page is not stored:
          // its job was cancelled meanwhile (stop here) or another worker finished it (skip it).
          const rendered = await this.step.render(job, page, options, { overlap: true });
          if (rendered === 'cancelled') return;
          if (rendered === 'taken') continue;
          result = rendered;
          this.noteEngine(jobId, result);
        } finally {
          behind(lease.release());
          // Held until stored when rendered; let go at once otherwise (refused, or thrown).
          if (!result) behind(hold.release());
        }
        // A failed store fails the chunk (Bull runs it again): this page goes with it, let go.
        await storing.catch((err: unknown) => {
          behind(hold.release());
          throw err;
        });
        store(result, hold);
      }
    } finally {
      await settled();
    }
    // Only the last window's chunks and the pieces end the job: a chunk that queues the next one
    // hands the check down its chain, whose last chunk makes it (and a piece still running then
    // makes it when it ends).
    if (!piece && !lastWindow) await this.queueNextChunk(jobId, nextChunk, job.total);
    else await this.progress.completeIfDone(jobId);
  }

  private noteEngine(jobId: string, result: PageResult): void {
    this.overHttp.delete(jobId);
    if (this.overHttp.size >= RECENT_JOBS) this.overHttp.delete(this.overHttp.keys().next().value!);
    this.overHttp.set(jobId, result.metadata.engine === 'http');
  }

  /** Pages of a chunk back to the queue (behind any sync scrape, or after a short wait). */
  private async requeue(data: PagesData, delay: number): Promise<void> {
    await this.producer.add('pages', data, { delay, again: true });
  }

  private async queueNextChunk(jobId: string, next: number, total: number): Promise<void> {
    const data = { jobId, fromIdx: next, toIdx: Math.min(total, next + PAGES_PER_JOB) };
    await this.producer.add('pages', data);
  }

  /**
   * What waits at the head of the render queue's wait list, undefined when nothing does. Bull
   * keeps that list in priority order, so a sync scrape or map waiting is at its head.
   */
  private async queueHead(): Promise<QueueHead> {
    const head = await this.queues.nextWaiting('render');
    if (!head) return undefined;
    if (head.name === 'scrape-sync' || head.name === 'map') return 'sync';
    return (head.data as Partial<PagesData> | undefined)?.piece ? 'piece' : 'other';
  }
}
