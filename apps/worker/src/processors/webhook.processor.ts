import { Injectable } from '@nestjs/common';
import { WebhookDeliveries } from '@app/webhooks';
import { JobHandlers, QueueProcessor } from './job-handlers';

/** Thin: a `deliver` job is one try of a webhook delivery. */
@Injectable()
export class WebhookProcessor implements QueueProcessor<'webhooks'> {
  readonly queue = 'webhooks' as const;

  constructor(private readonly deliveries: WebhookDeliveries) {}

  readonly handlers: JobHandlers<'webhooks'> = {
    deliver: (d) => this.deliveries.attempt(d),
  };
}
