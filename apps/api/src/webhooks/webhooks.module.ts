import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookAttempt, WebhookDelivery } from '@app/persistence';
import { WebhooksModule as WebhooksLibModule } from '@app/webhooks';
import { DeliveryLog } from './delivery-log.service';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WebhookSecretController } from './webhook-secret.controller';

@Module({
  imports: [TypeOrmModule.forFeature([WebhookDelivery, WebhookAttempt]), WebhooksLibModule],
  controllers: [WebhookSecretController, WebhookDeliveriesController],
  providers: [DeliveryLog],
  exports: [DeliveryLog],
})
export class WebhooksModule {}
