/**
 * Pages per Bull job: small, so a sync scrape never waits long behind a chunk, and so that a plan's
 * window (its pages in flight, in chunks) has a chunk for each of a worker's slots without splits
 * (docs/decisions.md, "Batch throughput").
 */
export const PAGES_PER_JOB = 5;

/**
 * Chunk jobs a job keeps queued at once: enough to use the plan's in-flight pages, never fewer than
 * one. A session's pages go one at a time, so its job keeps one: another chunk would only find the
 * session's slot taken and be handed back every LIMITED_RETRY_MS.
 */
export function windowFor(maxConcurrentPages: number, onSession: boolean): number {
  return onSession ? 1 : Math.max(1, Math.floor(maxConcurrentPages / PAGES_PER_JOB));
}

export function chunkStart(idx: number): number {
  return idx - (idx % PAGES_PER_JOB);
}

/** Where the chunk `window` chunks after the one holding `idx` starts: a finished chunk queues it. */
export function nextChunkStart(idx: number, window: number): number {
  return chunkStart(idx) + window * PAGES_PER_JOB;
}

/** [from, to) cut into `count` consecutive ranges as even as can be; fewer when there are fewer items. */
export function shares(from: number, to: number, count: number): [number, number][] {
  const size = to - from;
  const n = Math.min(count, size);
  return Array.from({ length: n }, (_, i) => [
    from + Math.floor((i * size) / n),
    from + Math.floor(((i + 1) * size) / n),
  ]);
}

/** The head of the render queue: a sync scrape, a piece split off a chunk, anything else, nothing. */
export type QueueHead = 'sync' | 'piece' | 'other' | undefined;

export interface HandOutState {
  head: QueueHead;
  /** The page the run is about to render; it has pages [n + 1, end) after it. */
  n: number;
  end: number;
  /** This worker's render slots with no job. */
  idle: number;
  /** Pages the account's and the host's limits still have room for. */
  spare: number;
  /** No chunk follows the run's: the job's pages not yet taken are all in runs already going. */
  lastWindow: boolean;
  /**
   * The job's pages come over http: one costs about what a piece's own round through the queue
   * and MySQL does, so a piece would cost more than the wait it saves.
   */
  quick: boolean;
}

/**
 * What a run shares out of its pages [n + 1, end) before it renders page n: [split, takers], where
 * pages [split, end) go back to the queue as `takers` pieces (none: [end, 0]). Never more pieces
 * than the limits have room for (a piece over a limit would only wait in the queue).
 * - Nothing waits and slots idle: an equal share for each idle slot and this run, so a batch's last
 *   pages end together instead of one half after another.
 * - Nothing waits but pieces, and the job's last chunks are running: all but page n, as single
 *   pages, unless the pages are quick. The busy slots free up one by one, and the first to do so
 *   takes the next page at once instead of idling until some run reaches its next page (a second a
 *   browser page here).
 */
export function handOut({ head, n, end, idle, spare, lastWindow, quick }: HandOutState): [number, number] {
  const left = end - n - 1;
  if (head === undefined && idle > 0) {
    const takers = Math.min(idle, spare, left);
    return [n + Math.ceil((end - n) / (takers + 1)), takers];
  }
  if (quick || !lastWindow || (head !== undefined && head !== 'piece')) return [end, 0];
  const takers = Math.min(spare, left);
  return [end - takers, takers];
}
