export { WebhooksModule } from './webhooks.module';
export { WebhookDeliveries } from './webhook-deliveries.service';
export { WebhookSecrets, ROTATION_OVERLAP_MS } from './webhook-secrets.service';
export type { SecretOwner, RevealedSecret, SealedSecrets } from './webhook-secrets.service';
export type { WebhookPayload } from './webhook-payload';
export { WebhookSender, verdictOf } from './sender';
export type { WebhookMessage, AttemptOutcome, AttemptVerdict } from './sender';
export { RetrySchedule } from './schedule';
export { generateWebhookSecret, signWebhook, signatureHeader } from './signature';
