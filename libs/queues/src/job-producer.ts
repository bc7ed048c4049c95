import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import { TimeoutError } from '@app/common';
import { JobData, JobName, JobResult, QUEUE_OF, QUEUES, QueueName, jobOptions } from '@app/queue-contracts';

export interface AddOptions {
  /** Bull job id: makes adding idempotent (a second add with the same id is ignored). */
  jobId?: string;
  delay?: number;
  priority?: number;
}

/** A caller of addAndWait until its job's end is published. */
interface Waiter {
  resolve(value: unknown): void;
  reject(reason: Error): void;
}

/** Bull's subscription to a queue's published events; its own job.finished() awaits the same. */
type Subscribing = Queue & { _registerEvent(event: string): Promise<unknown> };

// Bull's wait list is taken from its right end (priority jobs are inserted in order); the job's hash
// sits under the queue's prefix and its id. ARGV: the queue's key prefix.
const NEXT_WAITING = `
local id = redis.call('LINDEX', KEYS[1], -1)
if not id then return nil end
return redis.call('HMGET', ARGV[1] .. id, 'name', 'data')
`;

/** What waits next in a queue, without Bull's job object. */
export interface WaitingJob {
  name: string;
  data: unknown;
}

/** The typed way onto the queues: a name decides the queue, the payload type and the options. */
@Injectable()
export class JobProducer {
  private readonly queues: Record<QueueName, Queue>;
  /** Callers of addAndWait by queue, then by job id, once the queue's events are subscribed. */
  private readonly waiters = new Map<QueueName, Promise<Map<string, Waiter>>>();

  constructor(
    @InjectQueue(QUEUES.render) render: Queue,
    @InjectQueue(QUEUES.crawl) crawl: Queue,
    @InjectQueue(QUEUES.webhooks) webhooks: Queue,
  ) {
    this.queues = { render, crawl, webhooks };
  }

  queue(name: QueueName): Queue {
    return this.queues[name];
  }

  /**
   * The job a worker of the queue takes next, or undefined when none waits: one round trip, where
   * Bull's getWaiting(0, 0) takes two and builds a Job (asked before every page of a batch).
   */
  async nextWaiting(name: QueueName): Promise<WaitingJob | undefined> {
    const queue = this.queues[name];
    const reply = (await queue.client.eval(NEXT_WAITING, 1, queue.toKey('wait'), queue.toKey(''))) as
      [string | null, string | null] | null;
    if (!reply?.[0]) return undefined;
    return { name: reply[0], data: reply[1] ? JSON.parse(reply[1]) : undefined };
  }

  async add<N extends JobName>(
    name: N,
    data: JobData<N>,
    options: AddOptions = {},
  ): Promise<Job<JobData<N>>> {
    const queue = this.queues[QUEUE_OF[name]] as Queue<JobData<N>>;
    return queue.add(name, data, { ...jobOptions(name), ...options });
  }

  /** Adds many jobs of one name in one round trip (Bull's addBulk). */
  async addMany<N extends JobName>(
    name: N,
    jobs: { data: JobData<N>; options?: AddOptions }[],
  ): Promise<void> {
    const queue = this.queues[QUEUE_OF[name]] as Queue<JobData<N>>;
    await queue.addBulk(
      jobs.map(({ data, options }) => ({ name, data, opts: { ...jobOptions(name), ...options } })),
    );
  }

  /**
   * Adds a job and waits for its return value; TimeoutError if no worker finished it in time. The
   * waiter is in place before the job is added (its id is ours), so its end cannot be missed.
   */
  async addAndWait<N extends JobName>(name: N, data: JobData<N>, timeoutMs: number): Promise<JobResult<N>> {
    const waiters = await this.waitersOf(QUEUE_OF[name]);
    const jobId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const ended = new Promise<unknown>((resolve, reject) => waiters.set(jobId, { resolve, reject }));
    // It may end while the add is still in flight: handled below, not an unhandled rejection.
    ended.catch(() => undefined);
    try {
      await this.add(name, data, { jobId });
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError('No worker answered in time')), timeoutMs);
      });
      return (await Promise.race([ended, timeout])) as JobResult<N>;
    } finally {
      clearTimeout(timer);
      waiters.delete(jobId);
    }
  }

  /**
   * One pair of listeners a queue for all of addAndWait's callers, found by job id. Bull's
   * job.finished() adds a pair per caller, each called on every job's end (over ten waiting sync
   * scrapes, Node warned of a listener leak). Resolves once Redis confirmed the subscriptions.
   */
  private waitersOf(name: QueueName): Promise<Map<string, Waiter>> {
    let ready = this.waiters.get(name);
    if (!ready) {
      const queue = this.queues[name] as Subscribing;
      const waiters = new Map<string, Waiter>();
      queue.on('global:completed', (jobId: string, result: string) => {
        const waiter = waiters.get(String(jobId));
        if (!waiter) return;
        try {
          waiter.resolve(typeof result === 'string' ? JSON.parse(result) : result);
        } catch {
          waiter.reject(new Error("the worker's result could not be read"));
        }
      });
      queue.on('global:failed', (jobId: string, reason: string) =>
        waiters.get(String(jobId))?.reject(new Error(reason)),
      );
      ready = Promise.all([
        queue._registerEvent('global:completed'),
        queue._registerEvent('global:failed'),
      ]).then(() => waiters);
      this.waiters.set(name, ready);
    }
    return ready;
  }
}
