import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JobStateModule } from '@app/jobs';
import { WebhookAttempt, WebhookDelivery, WebhookSecret, secretBoxProvider } from '@app/persistence';
import { NetGuardModule } from '@app/net-guard';
import { WebhookDeliveries } from './webhook-deliveries.service';
import { WebhookPayloads } from './webhook-payload';
import { WebhookSecrets } from './webhook-secrets.service';
import { WebhookSender } from './sender';

/** Secrets, payloads, the sender and the delivery log; the queue consumer lives in the worker. */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookSecret, WebhookDelivery, WebhookAttempt]),
    JobStateModule,
    NetGuardModule,
  ],
  providers: [secretBoxProvider, WebhookPayloads, WebhookSecrets, WebhookSender, WebhookDeliveries],
  exports: [WebhookSecrets, WebhookDeliveries],
})
export class WebhooksModule {}
