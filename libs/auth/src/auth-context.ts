import type { Environment } from '@app/persistence';

/** Who is calling: resolved once per request from the bearer key. */
export interface AuthContext {
  accountId: string;
  email: string;
  environment: Environment;
  keyId: string;
  plan: { id: number; name: string; ratePerMinute: number; monthlyQuota: number; maxConcurrentPages: number };
}
