import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { Gauge, Registry } from 'prom-client';
import { QUEUES, QueueName } from '@app/queue-contracts';
import { JobProducer } from '@app/queues';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * Queue depth and the age of the oldest waiting job, read from Bull when Prometheus scrapes. The
 * API reports them, not the workers: it sees every queue, and runs while KEDA has workers at zero.
 */
@Injectable()
export class QueueMetrics {
  private readonly logger = new Logger(QueueMetrics.name);

  constructor(registry: Registry, producer: JobProducer) {
    const queues = Object.values(QUEUES).map((name) => [name, producer.queue(name)] as const);
    const registers = [registry];
    const logger = this.logger;
    new Gauge({
      name: 'scraper_queue_jobs',
      help: 'Jobs in each Bull queue by state: waiting, active, delayed, failed.',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        const counts = await readAll(queues, (q) => q.getJobCounts(), logger);
        for (const [queue, count] of counts) {
          for (const state of STATES) this.set({ queue, state }, count[state]);
        }
      },
    });
    new Gauge({
      name: 'scraper_queue_oldest_waiting_age_seconds',
      help: 'How long the longest-waiting job of each queue has been ready to run (0 when none waits).',
      labelNames: ['queue'],
      registers,
      async collect() {
        this.reset();
        const now = Date.now();
        for (const [queue, readyAt] of await readAll(queues, oldestReadyAt, logger)) {
          this.set({ queue }, readyAt === null ? 0 : Math.max(0, now - readyAt) / 1000);
        }
      },
    });
  }
}

/**
 * When the job that has waited longest became ready. Bull keeps the wait list in FIFO order, but
 * priorities place a job anywhere: the two ends cover the next job to run and the one parked last.
 */
async function oldestReadyAt(queue: Queue): Promise<number | null> {
  const ends = [
    ...(await queue.getJobs(['waiting'], 0, 0, true)),
    ...(await queue.getJobs(['waiting'], 0, 0, false)),
  ];
  const ready = ends.filter(Boolean).map((job) => job.timestamp + (job.opts.delay ?? 0));
  return ready.length ? Math.min(...ready) : null;
}

/** A queue Redis cannot answer for is left out of this scrape rather than failing all of /metrics. */
async function readAll<T>(
  queues: readonly (readonly [QueueName, Queue])[],
  read: (queue: Queue) => Promise<T>,
  logger: Logger,
): Promise<[QueueName, T][]> {
  const read_ = await Promise.allSettled(
    queues.map(async ([name, q]) => [name, await read(q)] as [QueueName, T]),
  );
  return read_.flatMap((r) => {
    if (r.status === 'fulfilled') return [r.value];
    logger.warn({ err: r.reason as unknown }, 'queue metrics unavailable');
    return [];
  });
}
