import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { WebhookDeliveries } from '@app/webhooks';
import { every } from '../maintenance/periodic';

const SWEEP_EVERY_MS = 30_000;

/**
 * In every worker that consumes `webhooks`: creates the deliveries a crash skipped and re-queues
 * tries Redis lost (WebhookDeliveries.sweep is idempotent, so several workers may run it at once).
 */
@Injectable()
export class DeliverySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DeliverySweeper.name);
  private loop?: { stop: () => Promise<void> };

  constructor(private readonly deliveries: WebhookDeliveries) {}

  onApplicationBootstrap(): void {
    this.loop = every(SWEEP_EVERY_MS, this.logger, async () => {
      const swept = await this.deliveries.sweep();
      if (swept.created || swept.requeued) this.logger.log(swept, 'webhook deliveries swept');
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
  }
}
