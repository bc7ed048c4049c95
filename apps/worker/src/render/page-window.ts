/**
 * Pages per Bull job: small, so a sync scrape never waits long behind a chunk, and so that a plan's
 * window (its pages in flight, in chunks) has a chunk for each of a worker's slots without splits
 * (docs/decisions.md, "Batch throughput").
 */
export const PAGES_PER_JOB = 5;

/** Chunk jobs a job keeps queued at once: enough to use the plan's in-flight pages, never fewer than one. */
export function windowFor(maxConcurrentPages: number): number {
  return Math.max(1, Math.floor(maxConcurrentPages / PAGES_PER_JOB));
}

export function chunkStart(idx: number): number {
  return idx - (idx % PAGES_PER_JOB);
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
