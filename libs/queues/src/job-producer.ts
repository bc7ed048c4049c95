import { Injectable } from '@nestjs/common';
import { TimeoutError } from '@app/common';
import { JobData, JobName, JobResult, QUEUE_OF, QueueName, jobIdOf, jobOptions } from '@app/queue-contracts';
import { QueueAdapter } from './bull/queue-adapter';

export interface AddOptions {
  delay?: number;
  /**
   * The job hands its own work back while it still runs: it is added under a fresh id (a second
   * add under the id it holds would be ignored).
   */
  again?: true;
}

/** A caller of addAndWait until its job's end is published. */
interface Waiter {
  resolve(value: unknown): void;
  reject(reason: Error): void;
  /** Its job's worker was lost: the job waits for another worker. */
  stalled(): void;
}

/**
 * The typed way onto the queues: a name decides the queue, the payload type, the options and the
 * job's id (from its payload, so adding the same work twice queues it once).
 */
@Injectable()
export class JobProducer {
  /** Callers of addAndWait by queue, then by job id, once the queue's ends are subscribed. */
  private readonly waiters = new Map<QueueName, Promise<Map<string, Waiter>>>();

  constructor(private readonly adapter: QueueAdapter) {}

  async add<N extends JobName>(name: N, data: JobData<N>, options: AddOptions = {}): Promise<void> {
    await this.adapter.add(QUEUE_OF[name], this.job(name, data, options));
  }

  /** Adds many jobs of one name in one round trip. */
  async addMany<N extends JobName>(name: N, jobs: JobData<N>[]): Promise<void> {
    await this.adapter.addMany(
      QUEUE_OF[name],
      jobs.map((data) => this.job(name, data)),
    );
  }

  /**
   * Gives back work Redis lost (the reconciler): as addMany, but replacing an ended job, one whose
   * hash Redis lost, or one no list holds, under the same id; one still queued or running is not
   * doubled.
   */
  async restore<N extends JobName>(name: N, jobs: JobData<N>[]): Promise<void> {
    await this.adapter.restore(
      QUEUE_OF[name],
      jobs.map((data) => this.job(name, data)),
    );
  }

  /** Of these jobs (MySQL's), those with work in the queue: waiting, delayed or running. */
  withWork(queue: QueueName, jobIds: string[]): Promise<Set<string>> {
    return this.adapter.ownersWithWork(queue, jobIds);
  }

  /** The job of this payload runs now if it waits for its time; false when the queue holds none. */
  runNow<N extends JobName>(name: N, data: JobData<N>): Promise<boolean> {
    return this.adapter.promote(QUEUE_OF[name], jobIdOf(name, data));
  }

  /**
   * Adds a job and waits for its return value; TimeoutError if no worker finished it within
   * `tryMs` of the add, or of the last time its worker was lost (the job then waits for another
   * worker, which gets `tryMs` of its own). StalledOutError when the queue gave it up after too many
   * lost workers. The waiter is in place before the job is added (its id is known first), so its
   * end cannot be missed.
   */
  async addAndWait<N extends JobName>(name: N, data: JobData<N>, tryMs: number): Promise<JobResult<N>> {
    const waiters = await this.waitersOf(QUEUE_OF[name]);
    const job = this.job(name, data);
    let timer: NodeJS.Timeout | undefined;
    const ended = new Promise<unknown>((resolve, reject) => {
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => reject(new TimeoutError('No worker answered in time')), tryMs);
      };
      // Armed at once: a slow add counts against the wait too.
      arm();
      waiters.set(job.id, { resolve, reject, stalled: arm });
    });
    // It may end while the add is still in flight: handled below, not an unhandled rejection.
    ended.catch(() => undefined);
    try {
      await this.adapter.add(QUEUE_OF[name], job);
      return (await ended) as JobResult<N>;
    } finally {
      clearTimeout(timer);
      waiters.delete(job.id);
    }
  }

  private job<N extends JobName>(name: N, data: JobData<N>, { delay, again }: AddOptions = {}) {
    const options = delay === undefined ? jobOptions(name) : { ...jobOptions(name), delay };
    return { name, data, id: jobIdOf(name, data, again), options };
  }

  /**
   * One listener a queue for all of addAndWait's callers, found by job id. A listener per caller
   * would be called on every job's end (over ten waiting sync scrapes, Node warned of a listener
   * leak). Resolves once Redis confirmed the subscription.
   */
  private waitersOf(name: QueueName): Promise<Map<string, Waiter>> {
    let ready = this.waiters.get(name);
    if (!ready) {
      const waiters = new Map<string, Waiter>();
      ready = this.adapter
        .onEnded(name, {
          completed(id, result) {
            const waiter = waiters.get(id);
            if (!waiter) return;
            try {
              waiter.resolve(result());
            } catch {
              waiter.reject(new Error("the worker's result could not be read"));
            }
          },
          failed: (id, error) => waiters.get(id)?.reject(error),
          stalled: (id) => waiters.get(id)?.stalled(),
        })
        .then(() => waiters);
      this.waiters.set(name, ready);
    }
    return ready;
  }
}
