// Listed explicitly (not globbed) so the compiled apps and ts-node see the same set, in order.
import { InitialSchema1795333566473 } from './1795333566473-InitialSchema';
import { SeedPlans1795333566474 } from './1795333566474-SeedPlans';
import { QuotaAndUsageFlushes1795334621020 } from './1795334621020-QuotaAndUsageFlushes';

export const MIGRATIONS = [
  InitialSchema1795333566473,
  SeedPlans1795333566474,
  QuotaAndUsageFlushes1795334621020,
];
