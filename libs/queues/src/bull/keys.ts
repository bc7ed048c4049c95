import type { QueueName } from '@app/queue-contracts';

/** Where Bull keeps every queue under a deployment's REDIS_PREFIX. */
export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}:bull`;
}

/** The Redis list of a queue's waiting jobs: what KEDA scales the workers on. */
export function waitListKey(redisPrefix: string, queue: QueueName): string {
  return `${bullPrefix(redisPrefix)}:${queue}:wait`;
}
