export * from './columns';
export { Plan } from './plan.entity';
export { Account } from './account.entity';
export type { AccountStatus } from './account.entity';
export type { StoredKey } from './stored-key';
export { ApiKey } from './api-key.entity';
export { WebhookSecret } from './webhook-secret.entity';
export { WebhookDelivery } from './webhook-delivery.entity';
export type { DeliveryStatus } from './webhook-delivery.entity';
export { WebhookAttempt } from './webhook-attempt.entity';
export { UsageDaily } from './usage-daily.entity';
export { QuotaMonthly } from './quota-monthly.entity';
export { UsageFlush } from './usage-flush.entity';
export { Admin } from './admin.entity';
export { AdminKey } from './admin-key.entity';
export { AuditEntry } from './audit-entry.entity';

import { Plan } from './plan.entity';
import { Account } from './account.entity';
import { ApiKey } from './api-key.entity';
import { WebhookSecret } from './webhook-secret.entity';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookAttempt } from './webhook-attempt.entity';
import { UsageDaily } from './usage-daily.entity';
import { QuotaMonthly } from './quota-monthly.entity';
import { UsageFlush } from './usage-flush.entity';
import { Admin } from './admin.entity';
import { AdminKey } from './admin-key.entity';
import { AuditEntry } from './audit-entry.entity';

/** The tables this library owns; the job tables' entities come from libs/jobs (see dataSourceOptions). */
export const ENTITIES = [
  Plan,
  Account,
  ApiKey,
  WebhookSecret,
  WebhookDelivery,
  WebhookAttempt,
  UsageDaily,
  QuotaMonthly,
  UsageFlush,
  Admin,
  AdminKey,
  AuditEntry,
];
