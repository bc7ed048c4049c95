import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { TimeoutError } from '@app/common';
import { JobData, JobName, JobResult, QUEUE_OF, QUEUES, QueueName, jobOptions } from '@app/queue-contracts';

export interface AddOptions {
  /** Bull job id: makes adding idempotent (a second add with the same id is ignored). */
  jobId?: string;
  delay?: number;
  priority?: number;
}

/** The typed way onto the queues: a name decides the queue, the payload type and the options. */
@Injectable()
export class JobProducer {
  private readonly queues: Record<QueueName, Queue>;

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

  /** Adds a job and waits for its return value; TimeoutError if no worker finished it in time. */
  async addAndWait<N extends JobName>(name: N, data: JobData<N>, timeoutMs: number): Promise<JobResult<N>> {
    const job = await this.add(name, data);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError('No worker answered in time')), timeoutMs);
    });
    try {
      return (await Promise.race([job.finished(), timeout])) as JobResult<N>;
    } finally {
      clearTimeout(timer);
    }
  }
}
