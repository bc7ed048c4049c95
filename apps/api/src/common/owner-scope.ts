import type { Environment } from '@app/persistence';

/**
 * Whose rows a read or an action may touch. A customer passes its AuthContext (account and
 * environment both set: nothing else is visible, and anything else is a 404); an admin passes its
 * filter, where an unset field means every account or environment.
 */
export interface OwnerScope {
  accountId?: string;
  environment?: Environment;
}

export const ownerWhere = (s: OwnerScope) => ({
  ...(s.accountId ? { accountId: s.accountId } : {}),
  ...(s.environment ? { environment: s.environment } : {}),
});

/** Who owns a row, added to list items and details only where an admin reads across accounts. */
export const ownerFields = (row: { accountId: string; environment: Environment }) => ({
  account_id: row.accountId,
  environment: row.environment,
});
