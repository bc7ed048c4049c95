import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SharedEnv } from '@app/config';
import { JobStateModule } from '@app/jobs';
import { WebhookAttempt, WebhookDelivery, WebhookSecret } from '@app/persistence';
import { NetGuardModule } from '@app/net-guard';
import { SecretBox } from './secret-box';
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
  providers: [
    {
      provide: SecretBox,
      inject: [SharedEnv],
      useFactory: (env: SharedEnv) => new SecretBox(env.SECRETS_ENCRYPTION_KEY),
    },
    WebhookPayloads,
    WebhookSecrets,
    WebhookSender,
    WebhookDeliveries,
  ],
  exports: [WebhookSecrets, WebhookDeliveries],
})
export class WebhooksModule {}
