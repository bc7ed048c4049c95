import Bull, { type Queue } from 'bull';
import { randomBytes } from 'node:crypto';
import { QUEUES, type QueueName } from '@app/queue-contracts';
import { bullPrefix } from './keys';
import { QueueAdapter } from './queue-adapter';

/** An adapter over queues of its own under a fresh Redis prefix, outside Nest, for tests. */
export interface TestQueues {
  adapter: QueueAdapter;
  /** Bull's own queues under the adapter, for a test to hold it against Bull's answers. */
  bull: Record<QueueName, Queue>;
  redisPrefix: string;
  /** Empties the queues from Redis and closes their connections. */
  close(): Promise<void>;
}

export function testQueues(redisUrl: string, basePrefix: string): TestQueues {
  const redisPrefix = `${basePrefix}_q_${randomBytes(3).toString('hex')}`;
  const [render, crawl, webhooks] = [QUEUES.render, QUEUES.crawl, QUEUES.webhooks].map(
    (name) => new Bull(name, redisUrl, { prefix: bullPrefix(redisPrefix) }),
  );
  return {
    adapter: new QueueAdapter(render, crawl, webhooks),
    bull: { render, crawl, webhooks },
    redisPrefix,
    async close() {
      for (const q of [render, crawl, webhooks]) {
        await q.obliterate({ force: true });
        await q.close();
      }
    },
  };
}
