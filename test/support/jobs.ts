import { DataSource } from 'typeorm';
import { JobStats } from '@app/jobs';
import type { ApiHarness } from './api-harness';

/** Polls GET /v1/jobs/{id} until the job leaves queued/running. */
export async function waitForJob(api: ApiHarness, key: string, id: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.http().get(`/v1/jobs/${id}`).set('Authorization', `Bearer ${key}`);
    if (res.status !== 200) throw new Error(`GET /v1/jobs/${id}: ${res.status} ${JSON.stringify(res.body)}`);
    if (!['queued', 'running'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline)
      throw new Error(
        `job ${id} still ${res.body.status} after ${timeoutMs} ms: ${JSON.stringify(res.body).slice(0, 300)}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every page result of a batch or crawl, following `next` with the largest page size. */
export async function allResults(api: ApiHarness, key: string, id: string) {
  // Page results, asserted field by field by the tests.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const data: Record<string, any>[] = [];
  let cursor: string | null = null;
  do {
    const q: string = cursor ? `?page_size=1000&cursor=${cursor}` : '?page_size=1000';
    const res = await api.http().get(`/v1/jobs/${id}${q}`).set('Authorization', `Bearer ${key}`).expect(200);
    data.push(...res.body.result.data);
    cursor = res.body.result.next;
  } while (cursor);
  return data;
}

/** Pages of a job finished so far (completed + failed), or -1 while the API cannot answer 200. */
export async function finishedPages(api: ApiHarness, key: string, id: string): Promise<number> {
  const res = await api.http().get(`/v1/jobs/${id}`).set('Authorization', `Bearer ${key}`);
  return res.status === 200 ? res.body.completed + res.body.failed : -1;
}

/** Polls until at least `atLeast` pages of the job have finished; returns how many have. */
export async function waitForFinishedPages(
  api: ApiHarness,
  key: string,
  id: string,
  atLeast: number,
  timeoutMs = 120_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const n = await finishedPages(api, key, id);
    if (n >= atLeast) return n;
    if (Date.now() > deadline) throw new Error(`job ${id} never reached ${atLeast} finished pages`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits for the job's end and asserts it completed with every page succeeded exactly once: results
 * in input order, one row per page, counters equal to the rows.
 */
export async function expectEveryPageOnce(
  api: ApiHarness,
  key: string,
  id: string,
  urls: string[],
  timeoutMs = 300_000,
) {
  const job = await waitForJob(api, key, id, timeoutMs);
  const data = await allResults(api, key, id);
  const { rows, distinct, succeeded, failed } = await new JobStats(api.app.get(DataSource)).pages([id]);
  // Which pages failed and why, before the counters that only say how many.
  expect(data.filter((p) => p.error).map((p) => ({ url: p.url, error: p.error }))).toEqual([]);
  expect(job).toMatchObject({ status: 'completed', total: urls.length, completed: urls.length, failed: 0 });
  expect(data.map((p) => p.index)).toEqual(urls.map((_, i) => i));
  expect(data.map((p) => p.url)).toEqual(urls);
  const counts = { rows, distinct, succeeded, failed };
  expect(counts).toEqual({ rows: urls.length, distinct: urls.length, succeeded: urls.length, failed: 0 });
  return { job, data, rows: counts };
}
