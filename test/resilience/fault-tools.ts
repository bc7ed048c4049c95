import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { JobStats } from '@app/jobs';
import type { RunningProcess } from '../support/processes';

/**
 * Deletes every key of the render queue, as an eviction or a hand-emptied queue would; the
 * reconciler's marker stays, so nothing tells a worker that Redis lost anything. Returns how many went.
 */
export async function dropRenderQueue(redisUrl: string): Promise<number> {
  const client = new Redis(redisUrl);
  let lost = 0;
  try {
    const scan = client.scanStream({ match: '*:bull:render:*', count: 1000 }) as AsyncIterable<string[]>;
    for await (const keys of scan) if (keys.length) lost += await client.del(...keys);
  } finally {
    client.disconnect();
  }
  return lost;
}

/** FLUSHALL: Redis loses everything, its reconciler's marker too. */
export async function flushRedis(redisUrl: string): Promise<void> {
  const client = new Redis(redisUrl);
  try {
    await client.flushall();
  } finally {
    client.disconnect();
  }
}

/** Whether the reconciler's marker is in Redis (a worker's pass after a reset sets it). */
export async function hasReconcilerMarker(redisUrl: string): Promise<boolean> {
  const client = new Redis(redisUrl);
  try {
    return (await client.keys('*reconciler:epoch')).length === 1;
  } finally {
    client.disconnect();
  }
}

/**
 * A stuck batch's unfinished pages, what the render queue holds and the worker's warnings, for a
 * failure's message.
 */
export async function leftOver(db: DataSource, redisUrl: string, id: string, worker: RunningProcess) {
  const pages = await new JobStats(db).openPages(id);
  const client = new Redis(redisUrl);
  const queue: Record<string, string[]> = {};
  try {
    for (const key of await client.keys('*render*')) {
      const type = await client.type(key);
      if (type === 'list') queue[key] = await client.lrange(key, 0, 50);
      else if (type === 'zset') queue[key] = await client.zrange(key, 0, 50);
      else if (key.includes(id)) queue[key] = [type];
    }
  } finally {
    client.disconnect();
  }
  const complaints = worker
    .output()
    .split('\n')
    .filter((line) => /error|warn|fail|re-queued/i.test(line));
  return JSON.stringify({ pages, queue, worker: complaints.slice(-40) }, null, 1);
}

/** The job's pages now marked running (what a worker killed now held). */
export async function runningPages(db: DataSource, id: string): Promise<number[]> {
  const open = await new JobStats(db).openPages(id);
  return open.filter((page) => page.status === 'running').map((page) => page.idx);
}

/** Polls until every page of `idxs` has finished (succeeded or failed). */
export async function waitForPagesDone(db: DataSource, id: string, idxs: number[], timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = new Set((await new JobStats(db).openPages(id)).map((page) => page.idx));
    const left = idxs.filter((idx) => open.has(idx));
    if (!left.length) return;
    if (Date.now() > deadline) throw new Error(`pages ${left.join(', ')} still open`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits for the worker's log (LOG_LEVEL info) to say its reconciler gave open jobs back after a reset. */
export async function reconcilerPassAfterReset(worker: RunningProcess, timeoutMs = 60_000) {
  const passed = () =>
    worker
      .output()
      .split('\n')
      .some((line) => line.includes('re-queued open jobs') && line.includes('"redisWasReset":true'));
  for (const deadline = Date.now() + timeoutMs; !passed();) {
    if (Date.now() > deadline) throw new Error(`no reconciler pass after the reset:\n${worker.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
