import { Injectable } from '@nestjs/common';
import { KeyObject, createSecretKey } from 'node:crypto';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { SharedEnv } from '@app/config';
import { NotFoundError, UnauthorizedError, newId } from '@app/common';
import { ApiKey, Environment, type StoredKey } from '@app/persistence';
import { generateApiKey, hashApiKey, parseApiKey } from './api-keys';
import { AuthCache } from './auth-cache';
import type { AuthContext } from './auth-context';

/** What any key (customer or admin) looks like after creation: never the key itself. */
export interface StoredKeyView {
  prefix: string;
  last4: string;
  name: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface ApiKeyView extends StoredKeyView {
  id: string;
  environment: Environment;
}

export interface IssuedApiKey extends ApiKeyView {
  /** Shown once, in the answer that created it. */
  key: string;
}

interface AuthRow {
  key_id: string;
  environment: Environment;
  account_id: string;
  email: string;
  plan_id: number;
  plan_name: string;
  rate_per_minute: number;
  monthly_quota: number;
  max_concurrent_pages: number;
}

export const toStoredKeyView = (k: StoredKey): StoredKeyView => ({
  prefix: k.prefix,
  last4: k.last4,
  name: k.name,
  created_at: k.createdAt.toISOString(),
  revoked_at: k.revokedAt?.toISOString() ?? null,
});

export function toKeyView(k: ApiKey): ApiKeyView {
  return { id: k.id, environment: k.environment, ...toStoredKeyView(k) };
}

@Injectable()
export class ApiKeysService {
  private readonly hashSecret: KeyObject;

  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    env: SharedEnv,
    private readonly cache: AuthCache,
  ) {
    this.hashSecret = createSecretKey(Buffer.from(env.KEY_HASH_SECRET));
  }

  async issue(
    accountId: string,
    environment: Environment,
    name: string | null = null,
  ): Promise<IssuedApiKey> {
    return this.issueWith(this.keys, accountId, environment, name);
  }

  /** As issue(), inside a caller's transaction. */
  async issueWith(
    repo: Repository<ApiKey>,
    accountId: string,
    environment: Environment,
    name: string | null = null,
  ): Promise<IssuedApiKey> {
    const { key, prefix, last4 } = generateApiKey(environment);
    const row = repo.create({
      id: newId('key'),
      accountId,
      environment,
      keyHash: hashApiKey(key, this.hashSecret),
      prefix,
      last4,
      name,
      lastUsedAt: null,
      revokedAt: null,
    });
    await repo.insert(row);
    const saved = await repo.findOneByOrFail({ id: row.id });
    return { ...toKeyView(saved), key };
  }

  async list(accountId: string, environment?: Environment): Promise<ApiKeyView[]> {
    const rows = await this.keys.find({
      where: { accountId, ...(environment ? { environment } : {}) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toKeyView);
  }

  /**
   * Revokes a key; scoped to an account (and environment) when a customer asks, unscoped for an admin.
   * Revocation is effective on the next request: the auth cache of every replica is invalidated
   * before this returns.
   */
  async revoke(keyId: string, scope?: { accountId: string; environment: Environment }): Promise<ApiKeyView> {
    const key = await this.keys.findOneBy({ id: keyId, ...(scope ?? {}) });
    if (!key) throw new NotFoundError('API key not found');
    if (!key.revokedAt) {
      await this.keys.update({ id: key.id, revokedAt: IsNull() }, { revokedAt: new Date() });
      await this.cache.invalidate();
    }
    return toKeyView(await this.keys.findOneByOrFail({ id: key.id }));
  }

  /** The stored hash of a bearer key; a missing or malformed one is refused before any lookup. */
  keyHash(authorization: string | undefined): string {
    const token = /^Bearer ([^\s]+)$/i.exec(authorization ?? '')?.[1];
    if (!token || !parseApiKey(token)) throw new UnauthorizedError();
    return hashApiKey(token, this.hashSecret);
  }

  /**
   * The caller of a key hash, read from MySQL. Unknown, revoked and suspended end in the same
   * UnauthorizedError as a malformed key. Admission puts AuthCache in front of it.
   */
  async resolve(keyHash: string): Promise<AuthContext> {
    const rows: AuthRow[] = await this.keys.query(
      `SELECT k.id AS key_id, k.environment, a.id AS account_id, a.email, p.id AS plan_id, p.name AS plan_name,
              p.rate_per_minute, p.monthly_quota, p.max_concurrent_pages
         FROM api_keys k
         JOIN accounts a ON a.id = k.account_id
         JOIN plans p ON p.id = a.plan_id
        WHERE k.key_hash = ? AND k.revoked_at IS NULL AND a.status = 'active'`,
      [keyHash],
    );
    const row = rows[0];
    if (!row) throw new UnauthorizedError();
    return {
      accountId: row.account_id,
      email: row.email,
      environment: row.environment,
      keyId: row.key_id,
      plan: {
        id: row.plan_id,
        name: row.plan_name,
        ratePerMinute: row.rate_per_minute,
        monthlyQuota: row.monthly_quota,
        maxConcurrentPages: row.max_concurrent_pages,
      },
    };
  }
}
