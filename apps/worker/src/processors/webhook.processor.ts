import { Injectable } from '@nestjs/common';
import { WebhookDeliveries } from '@app/webhooks';
import { JobHandlers, QueueProcessor } from './job-handlers';

/** Thin: a `deliver` job is one try of a webhook delivery. */
@Injectable()
export class WebhookProcessor implements QueueProcessor<'webhooks'> {
  readonly queue = 'webhooks' as const;
  /**
   * A try mostly waits, on MySQL's commit and on the receiver (up to WEBHOOK_TIMEOUT_MS), so more
   * run at once than pages render: a few slow receivers must not hold up everyone's deliveries.
   */
  readonly concurrency = 16;

  constructor(private readonly deliveries: WebhookDeliveries) {}

  readonly handlers: JobHandlers<'webhooks'> = {
    deliver: (d) => this.deliveries.attempt(d),
  };
}
