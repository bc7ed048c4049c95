export const QUEUES = {
  render: 'render',
  crawl: 'crawl',
  webhooks: 'webhooks',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
