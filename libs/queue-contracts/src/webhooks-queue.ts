import { JobSpec, PRIORITY, retried } from './job-spec';

/** Webhook deliveries: a worker consumes them when WORKER_QUEUES names this queue. */
export const WEBHOOKS_QUEUE = 'webhooks';

/** One try of a webhook delivery; `attemptNo` makes a stale or repeated job a no-op. */
export interface DeliverData {
  deliveryId: string;
  attemptNo: number;
}

export type WebhooksJob = { queue: typeof WEBHOOKS_QUEUE; name: 'deliver'; data: DeliverData; result: void };

export const WEBHOOK_JOBS: { deliver: JobSpec<DeliverData> } = {
  // Gone once run either way: the delivery row in MySQL is the record, and the sweep re-adds a
  // delivery whose job was lost (a kept failed job would block re-adding its id). One id a try.
  deliver: {
    options: { ...retried(PRIORITY.async, 3), removeOnFail: true },
    id: ({ deliveryId, attemptNo }) => `${deliveryId}:${attemptNo}`,
  },
};
