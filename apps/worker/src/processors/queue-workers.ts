import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { WorkerEnv } from '@app/config';
import { settlesWithin } from '@app/common';
import { QueueAdapter, type RunningJob } from '@app/queues';
import { JobName, QUEUE_OF, QueueName } from '@app/queue-contracts';
import { Draining } from '../lifecycle/draining';
import { QueueSlots } from '../lifecycle/queue-slots';
import type { QueueProcessor } from './job-handlers';

export const QUEUE_PROCESSORS = Symbol('QUEUE_PROCESSORS');

/**
 * Consumes the queues named in WORKER_QUEUES. Start-up fails if a job name of a consumed queue has
 * no handler, so a deploy can never silently leave jobs unprocessed.
 */
@Injectable()
export class QueueWorkers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(QueueWorkers.name);

  constructor(
    private readonly env: WorkerEnv,
    private readonly queues: QueueAdapter,
    private readonly draining: Draining,
    private readonly slots: QueueSlots,
    @Inject(QUEUE_PROCESSORS) private readonly processors: QueueProcessor<QueueName>[],
  ) {}

  onApplicationBootstrap(): void {
    const consumed = this.env.WORKER_QUEUES as QueueName[];
    const handled = new Map<string, (data: unknown, job: RunningJob) => Promise<unknown>>();
    for (const p of this.processors) {
      for (const [name, handler] of Object.entries(p.handlers)) handled.set(name, handler as never);
    }
    const missing = (Object.keys(QUEUE_OF) as JobName[]).filter(
      (name) => consumed.includes(QUEUE_OF[name]) && !handled.has(name),
    );
    if (missing.length) throw new Error(`no processor for job name(s): ${missing.join(', ')}`);
    for (const queue of consumed) {
      const processor = this.processors.find((p) => p.queue === queue);
      if (!processor) throw new Error(`no processor for queue ${queue}`);
      const { concurrency } = processor;
      this.slots.open(queue, concurrency);
      this.queues.consume(queue, concurrency, (name, data, job) => {
        const handler = handled.get(name);
        if (!handler) throw new Error(`no processor for job name ${name}`);
        return this.slots.occupy(queue, () => handler(data, job));
      });
      this.logger.log(`consuming ${queue} with concurrency ${concurrency}`);
    }
  }

  /**
   * SIGTERM: no new job starts; the active ones finish (a chunk of pages hands back the pages it
   * has not started). True when they all did within `graceMs`.
   */
  async drain(graceMs: number): Promise<boolean> {
    this.draining.start();
    // Other workers and the producers (hand-backs included) go on using the queue.
    const stopped = (this.env.WORKER_QUEUES as QueueName[]).map((q) => this.queues.stopTaking(q));
    return settlesWithin(Promise.all(stopped), graceMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all((this.env.WORKER_QUEUES as QueueName[]).map((q) => this.queues.close(q)));
  }
}
