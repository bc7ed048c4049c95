import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { QUEUES, type QueueJobOptions, type QueueName } from '@app/queue-contracts';

/** A job as the adapter adds it: its name, payload, queue id and options. */
export interface NewJob {
  name: string;
  data: unknown;
  id: string;
  options: QueueJobOptions & { delay?: number };
}

/** What waits next in a queue, without Bull's job object. */
export interface WaitingJob {
  name: string;
  data: unknown;
}

/** Told of each job end; `result()` reads the return value (and throws when it cannot), so only a wanted one is read. */
export interface EndListener {
  completed(id: string, result: () => unknown): void;
  failed(id: string, error: Error): void;
  /** The job's worker was lost (died, or its loop stalled past the lock): it waits for another. */
  stalled(id: string): void;
}

/** A job failed because its workers were lost more often than the queues allow. */
export class StalledOutError extends Error {}

/** A running job as its handler sees it. */
export interface RunningJob {
  /** Counts one more try of the job's work (kept with the job, across workers) and returns the count. */
  countTry(): Promise<number>;
}

/** Bull's failed reason (and published value) for a job that stalled past maxStalledCount. */
const STALLED_OUT = /stalled more than/;

export type JobCounts = Record<'waiting' | 'active' | 'delayed' | 'failed', number>;

/** Bull's subscription to a queue's published events; its own job.finished() awaits the same. */
type Subscribing = Queue & { _registerEvent(event: string): Promise<unknown> };

// Bull's wait list is taken from its right end (priority jobs are inserted in order); the job's hash
// sits under the queue's prefix and its id. ARGV: the queue's key prefix.
const NEXT_WAITING = `
local id = redis.call('LINDEX', KEYS[1], -1)
if not id then return nil end
return redis.call('HMGET', ARGV[1] .. id, 'name', 'data')
`;

// Of the ids given (ARGV[2..]), those whose job would keep restore from adding it, yet will never
// run: ended (kept in the failed or completed set); hollow (a hash without data: what Bull leaves
// when a job's hash vanishes under its worker, writing the failure's fields into a fresh hash); or
// orphaned (a hash in no list or set that runs a job, and no worker's lock: what a partial loss
// leaves, a list deleted or evicted while the hash stayed). KEYS: failed, completed, wait, paused,
// active, delayed. ARGV[1]: the queue's key prefix.
const STALE = `
local found = {}
for i = 2, #ARGV do
  local id = ARGV[i]
  local key = ARGV[1] .. id
  if redis.call('EXISTS', key) == 1 then
    local ended = redis.call('HEXISTS', key, 'data') == 0
      or redis.call('ZSCORE', KEYS[1], id) or redis.call('ZSCORE', KEYS[2], id)
    local orphaned = not (redis.call('LPOS', KEYS[3], id) or redis.call('LPOS', KEYS[4], id)
      or redis.call('LPOS', KEYS[5], id) or redis.call('ZSCORE', KEYS[6], id))
      and redis.call('EXISTS', key .. ':lock') == 0
    if ended or orphaned then found[#found + 1] = id end
  end
end
return found
`;

// Of the owners given (ARGV), those with a job in the queue that will run: waiting, paused, running
// or delayed. A job's id starts with its owner's id and ':' (queue-contracts, jobIdOf). Running jobs
// first (a short list), then the rest a slice at a time, done once every owner is found: only an
// owner with no work at all costs a pass over everything. KEYS: active, delayed, wait, paused.
const OWNERS_WITH_WORK = `
local wanted, left, found = {}, 0, {}
for _, owner in ipairs(ARGV) do
  if not wanted[owner] then
    wanted[owner] = true
    left = left + 1
  end
end
local function look(ids)
  for _, id in ipairs(ids) do
    local cut = string.find(id, ':', 1, true)
    local owner = cut and string.sub(id, 1, cut - 1)
    if owner and wanted[owner] then
      wanted[owner] = nil
      left = left - 1
      found[#found + 1] = owner
    end
  end
end
for i, key in ipairs(KEYS) do
  local from = 0
  while left > 0 do
    local ids = i == 2 and redis.call('ZRANGE', key, from, from + 999) or redis.call('LRANGE', key, from, from + 999)
    if #ids == 0 then break end
    look(ids)
    from = from + 1000
  end
end
return found
`;

/**
 * The one place that knows the queues are Bull's: every read and write of a queue, its Redis keys
 * and scripts included, is an operation here.
 */
@Injectable()
export class QueueAdapter {
  private readonly queues: Record<QueueName, Queue>;

  constructor(
    @InjectQueue(QUEUES.render) render: Queue,
    @InjectQueue(QUEUES.crawl) crawl: Queue,
    @InjectQueue(QUEUES.webhooks) webhooks: Queue,
  ) {
    this.queues = { render, crawl, webhooks };
  }

  /** Adds a job; a job with its id already held (waiting, delayed, running or kept) is left as it is. */
  async add(queue: QueueName, job: NewJob): Promise<void> {
    await this.queues[queue].add(job.name, job.data, { ...job.options, jobId: job.id });
  }

  /** Adds many jobs in one round trip, each as add would. */
  async addMany(queue: QueueName, jobs: NewJob[]): Promise<void> {
    await this.queues[queue].addBulk(
      jobs.map(({ name, data, id, options }) => ({ name, data, opts: { ...options, jobId: id } })),
    );
  }

  /**
   * Adds jobs to give back work that Redis lost: as addMany, but a job of the same id that has
   * ended, that Redis left hollow under its worker, or that no list holds any more, is removed
   * first (each would take the id and never run). One waiting, delayed or running is left as it is,
   * so nothing runs twice.
   */
  async restore(queue: QueueName, jobs: NewJob[]): Promise<void> {
    const q = this.queues[queue];
    const lists = ['failed', 'completed', 'wait', 'paused', 'active', 'delayed'].map((list) => q.toKey(list));
    const stale = (await q.client.eval(
      STALE,
      lists.length,
      ...lists,
      q.toKey(''),
      ...jobs.map((job) => job.id),
    )) as string[];
    for (const id of stale) await (await q.getJob(id))?.remove();
    await this.addMany(queue, jobs);
  }

  /**
   * The job a worker of the queue takes next, or undefined when none waits: one round trip, where
   * Bull's getWaiting(0, 0) takes two and builds a Job (asked before every page of a batch).
   */
  async nextWaiting(queue: QueueName): Promise<WaitingJob | undefined> {
    const q = this.queues[queue];
    const reply = (await q.client.eval(NEXT_WAITING, 1, q.toKey('wait'), q.toKey(''))) as
      [string | null, string | null] | null;
    if (!reply?.[0]) return undefined;
    return { name: reply[0], data: reply[1] ? JSON.parse(reply[1]) : undefined };
  }

  /**
   * Of `owners` (the MySQL jobs the queue's jobs work for), those the queue holds a job of that is
   * yet to run or running; a job only in the failed set does not count.
   */
  async ownersWithWork(queue: QueueName, owners: string[]): Promise<Set<string>> {
    if (!owners.length) return new Set();
    const q = this.queues[queue];
    const lists = ['active', 'delayed', 'wait', 'paused'].map((list) => q.toKey(list));
    return new Set((await q.client.eval(OWNERS_WITH_WORK, lists.length, ...lists, ...owners)) as string[]);
  }

  /** A delayed job runs now. False when the queue holds no job of that id (true if it is not delayed). */
  async promote(queue: QueueName, id: string): Promise<boolean> {
    const job = await this.queues[queue].getJob(id);
    if (job && (await job.isDelayed())) await job.promote();
    return Boolean(job);
  }

  async counts(queue: QueueName): Promise<JobCounts> {
    const { waiting, active, delayed, failed } = await this.queues[queue].getJobCounts();
    return { waiting, active, delayed, failed };
  }

  /**
   * When the job that has waited longest became ready (epoch ms), null when none waits. Bull keeps
   * the wait list in FIFO order, but priorities place a job anywhere: the two ends cover the next
   * job to run and the one parked last.
   */
  async oldestReadyAt(queue: QueueName): Promise<number | null> {
    const q = this.queues[queue];
    const ends = [
      ...(await q.getJobs(['waiting'], 0, 0, true)),
      ...(await q.getJobs(['waiting'], 0, 0, false)),
    ];
    const ready = ends.filter(Boolean).map((job) => job.timestamp + (job.opts.delay ?? 0));
    return ready.length ? Math.min(...ready) : null;
  }

  /** Runs the queue's jobs, every name under one limit of `concurrency` at once in this process. */
  consume(
    queue: QueueName,
    concurrency: number,
    run: (name: string, data: unknown, job: RunningJob) => Promise<unknown>,
  ): void {
    const q = this.queues[queue];
    void q.process('*', concurrency, (job: Job) =>
      run(job.name, job.data, {
        // A field of the job's own hash: it goes when the job does.
        countTry: () => q.client.hincrby(q.toKey(String(job.id)), 'tries', 1),
      }),
    );
  }

  /**
   * This process takes no more jobs of the queue; resolves once its running ones are done. Other
   * processes, and adds from this one, go on using the queue.
   */
  async stopTaking(queue: QueueName): Promise<void> {
    await this.queues[queue].pause(true);
  }

  /** No worker anywhere takes a job of the queue until resume. */
  async pause(queue: QueueName): Promise<void> {
    await this.queues[queue].pause();
  }

  async resume(queue: QueueName): Promise<void> {
    await this.queues[queue].resume();
  }

  async close(queue: QueueName): Promise<void> {
    await this.queues[queue].close();
  }

  /**
   * Tells `listener` of every job of the queue that ends, in any process. Resolves once Redis
   * confirmed the subscription, so no end published after it is missed.
   */
  async onEnded(queue: QueueName, listener: EndListener): Promise<void> {
    const q = this.queues[queue] as Subscribing;
    q.on('global:completed', (id: string, result: unknown) =>
      listener.completed(String(id), () => (typeof result === 'string' ? JSON.parse(result) : result)),
    );
    q.on('global:failed', (id: string, reason: string) =>
      listener.failed(String(id), STALLED_OUT.test(reason) ? new StalledOutError(reason) : new Error(reason)),
    );
    q.on('global:stalled', (id: string) => listener.stalled(String(id)));
    await Promise.all(
      ['global:completed', 'global:failed', 'global:stalled'].map((event) => q._registerEvent(event)),
    );
  }

  /** Listeners this process holds on the queue's job ends (one a queue, however many callers wait). */
  endListeners(queue: QueueName): number {
    return this.queues[queue].listenerCount('global:completed');
  }
}
