import { Injectable } from '@nestjs/common';
import type { QueueName } from '@app/queue-contracts';

/**
 * How many of this worker's job slots a queue has free. A chunk of pages uses it to split its
 * remainder when a slot would otherwise sit idle (a batch's last chunks, a plan whose chunk window
 * is smaller than the worker's concurrency).
 */
@Injectable()
export class QueueSlots {
  private readonly capacity = new Map<QueueName, number>();
  private readonly busy = new Map<QueueName, number>();

  /** The queue is consumed with `concurrency` slots. */
  open(queue: QueueName, concurrency: number): void {
    this.capacity.set(queue, concurrency);
    this.busy.set(queue, 0);
  }

  /** Runs one job in a slot of `queue`. */
  async occupy<T>(queue: QueueName, job: () => Promise<T>): Promise<T> {
    this.busy.set(queue, (this.busy.get(queue) ?? 0) + 1);
    try {
      return await job();
    } finally {
      this.busy.set(queue, (this.busy.get(queue) ?? 1) - 1);
    }
  }

  idle(queue: QueueName): number {
    return (this.capacity.get(queue) ?? 0) - (this.busy.get(queue) ?? 0);
  }
}
