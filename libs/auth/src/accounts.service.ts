import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { ConflictError, InvalidRequestError, NotFoundError, newId } from '@app/common';
import { Account, ApiKey, ENVIRONMENTS, Plan } from '@app/persistence';
import { ApiKeysService, IssuedApiKey } from './api-keys.service';

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
  ) {}

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
