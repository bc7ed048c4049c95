// Listed explicitly (not globbed) so the compiled apps and ts-node see the same set, in order.
import { InitialSchema1795333566473 } from './1795333566473-InitialSchema';
import { SeedPlans1795333566474 } from './1795333566474-SeedPlans';
import { QuotaAndUsageFlushes1795334621020 } from './1795334621020-QuotaAndUsageFlushes';
import { WebhookDeliveryPerJob1795335157078 } from './1795335157078-WebhookDeliveryPerJob';
import { AdminsAndAuditLog1795437117585 } from './1795437117585-AdminsAndAuditLog';
import { DeliveryRetentionIndex1795447126089 } from './1795447126089-DeliveryRetentionIndex';
import { EndedJobsDropClearHeaders1795667441303 } from './1795667441303-EndedJobsDropClearHeaders';
import { Sessions1795900000000 } from './1795900000000-Sessions';

export const MIGRATIONS = [
  InitialSchema1795333566473,
  SeedPlans1795333566474,
  QuotaAndUsageFlushes1795334621020,
  WebhookDeliveryPerJob1795335157078,
  AdminsAndAuditLog1795437117585,
  DeliveryRetentionIndex1795447126089,
  EndedJobsDropClearHeaders1795667441303,
  Sessions1795900000000,
];
