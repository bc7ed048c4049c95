/** Pages per Bull job: small, so a sync scrape never waits long behind a chunk. */
export const PAGES_PER_JOB = 10;

/** Chunk jobs a job keeps queued at once: enough to use the plan's in-flight pages, never fewer than one. */
export function windowFor(maxConcurrentPages: number): number {
  return Math.max(1, Math.floor(maxConcurrentPages / PAGES_PER_JOB));
}

export function chunkStart(idx: number): number {
  return idx - (idx % PAGES_PER_JOB);
}
