import { Injectable, Logger } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { QUEUES, QueueName } from '@app/queue-contracts';
import { QueueAdapter } from '@app/queues';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * Queue depth and the age of the oldest waiting job, read from the queues when Prometheus scrapes.
 * The API reports them, not the workers: it sees every queue, and runs while KEDA has workers at zero.
 */
@Injectable()
export class QueueMetrics {
  private readonly logger = new Logger(QueueMetrics.name);

  constructor(registry: Registry, queues: QueueAdapter) {
    const names = Object.values(QUEUES);
    const registers = [registry];
    const logger = this.logger;
    new Gauge({
      name: 'scraper_queue_jobs',
      help: 'Jobs in each Bull queue by state: waiting, active, delayed, failed.',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        const counts = await readAll(names, (q) => queues.counts(q), logger);
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
        for (const [queue, readyAt] of await readAll(names, (q) => queues.oldestReadyAt(q), logger)) {
          this.set({ queue }, readyAt === null ? 0 : Math.max(0, now - readyAt) / 1000);
        }
      },
    });
  }
}

/** A queue Redis cannot answer for is left out of this scrape rather than failing all of /metrics. */
async function readAll<T>(
  names: QueueName[],
  read: (queue: QueueName) => Promise<T>,
  logger: Logger,
): Promise<[QueueName, T][]> {
  const read_ = await Promise.allSettled(
    names.map(async (name) => [name, await read(name)] as [QueueName, T]),
  );
  return read_.flatMap((r) => {
    if (r.status === 'fulfilled') return [r.value];
    logger.warn({ err: r.reason as unknown }, 'queue metrics unavailable');
    return [];
  });
}
