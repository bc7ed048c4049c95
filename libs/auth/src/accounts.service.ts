import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Like, LessThan, Repository } from 'typeorm';
import { ConflictError, InvalidRequestError, NotFoundError, newId } from '@app/common';
import {
  Account,
  AccountStatus,
  ApiKey,
  ENVIRONMENTS,
  Plan,
  decodeCursor,
  encodeCursor,
} from '@app/persistence';
import { ApiKeysService, IssuedApiKey } from './api-keys.service';
import { AuthCache } from './auth-cache';

export interface AccountView {
  id: string;
  email: string;
  plan: string;
  status: string;
  created_at: string;
}

export interface CreatedAccount {
  account: AccountView;
  /** One production and one sandbox key, shown once. */
  keys: IssuedApiKey[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

@Injectable()
export class AccountsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    private readonly apiKeys: ApiKeysService,
    private readonly cache: AuthCache,
  ) {}

  /** Newest first; `email` matches a part of the address (search), `next` pages on. */
  async list(q: {
    email?: string;
    status?: AccountStatus;
    plan?: string;
    cursor?: string;
    limit: number;
  }): Promise<{ data: AccountView[]; next: string | null }> {
    const before = q.cursor ? decodeCursor(q.cursor, 'acc') : undefined;
    const rows = await this.accounts.find({
      where: {
        ...(q.email
          ? {
              email: Like(
                `%${q.email
                  .trim()
                  .toLowerCase()
                  .replace(/[\\%_]/g, '\\$&')}%`,
              ),
            }
          : {}),
        ...(q.status ? { status: q.status } : {}),
        ...(q.plan ? { plan: { name: q.plan } } : {}),
        ...(before ? { id: LessThan(before) } : {}),
      },
      relations: { plan: true },
      order: { id: 'DESC' },
      take: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    return {
      data: page.map(toAccountView),
      next: rows.length > q.limit ? encodeCursor('acc', page[page.length - 1].id) : null,
    };
  }

  /**
   * Changes an account's plan or suspends it. Both take effect on the next request of any replica:
   * the auth cache holds the plan and refuses suspended accounts only once it reads MySQL again.
   */
  async update(id: string, change: { plan?: string; status?: AccountStatus }): Promise<AccountView> {
    const account = await this.get(id);
    const patch: Partial<Account> = {};
    if (change.plan !== undefined) {
      const plan = await this.dataSource.getRepository(Plan).findOneBy({ name: change.plan });
      if (!plan) throw InvalidRequestError.field('plan', `unknown plan "${change.plan}"`);
      patch.planId = plan.id;
    }
    if (change.status !== undefined) patch.status = change.status;
    if (Object.keys(patch).length) {
      await this.accounts.update({ id: account.id }, patch);
      await this.cache.invalidate();
    }
    return toAccountView(await this.get(id));
  }

  async create(email: string, planName: string): Promise<CreatedAccount> {
    const normalised = email.trim().toLowerCase();
    if (!EMAIL.test(normalised) || normalised.length > 254) {
      throw InvalidRequestError.field('email', 'must be an e-mail address');
    }
    return this.dataSource.transaction(async (em) => {
      const plan = await em.getRepository(Plan).findOneBy({ name: planName });
      if (!plan) throw InvalidRequestError.field('plan', `unknown plan "${planName}"`);
      const repo = em.getRepository(Account);
      if (await repo.existsBy({ email: normalised })) {
        throw new ConflictError(`an account with e-mail ${normalised} already exists`);
      }
      const id = newId('acc');
      await repo.insert({ id, email: normalised, planId: plan.id, status: 'active' });
      const keyRepo = em.getRepository(ApiKey);
      const keys: IssuedApiKey[] = [];
      for (const environment of ENVIRONMENTS)
        keys.push(await this.apiKeys.issueWith(keyRepo, id, environment));
      const account = await repo.findOneOrFail({ where: { id }, relations: { plan: true } });
      return { account: toAccountView(account), keys };
    });
  }

  async get(id: string): Promise<Account> {
    const account = await this.accounts.findOne({ where: { id }, relations: { plan: true } });
    if (!account) throw new NotFoundError('account not found');
    return account;
  }

  async count(): Promise<number> {
    return this.accounts.count();
  }
}

export function toAccountView(a: Account): AccountView {
  return {
    id: a.id,
    email: a.email,
    plan: a.plan?.name ?? String(a.planId),
    status: a.status,
    created_at: a.createdAt.toISOString(),
  };
}
