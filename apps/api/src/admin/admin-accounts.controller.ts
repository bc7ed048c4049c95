import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  AccountsService,
  AccountView,
  ApiKeysService,
  ApiKeyView,
  CreatedAccount,
  IssuedApiKey,
  UsageService,
  UsageSummary,
  toAccountView,
} from '@app/auth';
import { ENVIRONMENTS, Environment } from '@app/persistence';
import { WebhookSecrets } from '@app/webhooks';
import { AdminRoute } from './admin.guard';
import { Audited } from './audit.interceptor';
import {
  AccountListQueryDto,
  CreateAccountDto,
  IssueKeyDto,
  RotateSecretQueryDto,
  UpdateAccountDto,
} from './admin.dto';

type AccountDetail = AccountView & {
  keys: ApiKeyView[];
  usage: Record<Environment, UsageSummary>;
};

/** What an admin may see of a rotation: never the secret, which only its account's key reveals. */
interface RotatedSecret {
  account_id: string;
  environment: Environment;
  rotated_at: string | null;
  previous_expires_at: string | null;
}

@Controller('admin/v1')
@AdminRoute()
export class AdminAccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly keys: ApiKeysService,
    private readonly usage: UsageService,
    private readonly secrets: WebhookSecrets,
  ) {}

  @Get('accounts')
  @ApiOperation({ summary: 'Accounts, filtered by e-mail, status or plan' })
  async list(@Query() q: AccountListQueryDto) {
    return this.accounts.list({ ...q, limit: q.limit ?? 50 });
  }

  /** Creates an account with one production and one sandbox key, returned once. */
  @Post('accounts')
  @HttpCode(201)
  @Audited('account.create', (r) => (r as CreatedAccount).account.id)
  @ApiOperation({ summary: 'Creates an account with one production and one sandbox key, shown once' })
  async create(@Body() body: CreateAccountDto): Promise<CreatedAccount> {
    return this.accounts.create(body.email, body.plan);
  }

  @Get('accounts/:id')
  @ApiOperation({ summary: 'An account, its keys (prefix and last 4) and usage per environment' })
  async get(@Param('id') id: string): Promise<AccountDetail> {
    const account = await this.accounts.get(id);
    const [production, sandbox] = await Promise.all(ENVIRONMENTS.map((e) => this.usage.summary(id, e)));
    return { ...toAccountView(account), keys: await this.keys.list(id), usage: { production, sandbox } };
  }

  /** Change plan, suspend or reactivate; effective on the account's next request. */
  @Patch('accounts/:id')
  @Audited('account.update')
  @ApiOperation({ summary: 'Changes plan or status (suspend, reactivate); effective on the next request' })
  async update(@Param('id') id: string, @Body() body: UpdateAccountDto): Promise<AccountView> {
    return this.accounts.update(id, body);
  }

  @Get('accounts/:id/keys')
  @ApiOperation({ summary: "An account's keys" })
  async listKeys(@Param('id') id: string): Promise<{ data: ApiKeyView[] }> {
    await this.accounts.get(id);
    return { data: await this.keys.list(id) };
  }

  @Post('accounts/:id/keys')
  @HttpCode(201)
  @Audited('key.issue', (r) => (r as IssuedApiKey).id)
  @ApiOperation({ summary: 'Issues another key of an account, shown once' })
  async issueKey(@Param('id') id: string, @Body() body: IssueKeyDto): Promise<IssuedApiKey> {
    await this.accounts.get(id);
    return this.keys.issue(id, body.environment, body.name ?? null);
  }

  /** Effective on the next request: the auth cache of every replica is dropped first. */
  @Delete('keys/:id')
  @Audited('key.revoke')
  @ApiOperation({ summary: 'Revokes a key, effective on the next request' })
  async revokeKey(@Param('id') id: string): Promise<ApiKeyView> {
    return this.keys.revoke(id);
  }

  /** For a leaked secret (with `expire_now=true` the old one stops signing at once). */
  @Post('accounts/:id/webhooks/secret/rotate')
  @HttpCode(200)
  @Audited('webhook_secret.rotate')
  @ApiOperation({ summary: "Rotates an account's webhook secret (never shown to admins)" })
  async rotateSecret(@Param('id') id: string, @Query() q: RotateSecretQueryDto): Promise<RotatedSecret> {
    await this.accounts.get(id);
    const s = await this.secrets.rotate({ accountId: id, environment: q.environment }, q.expire_now ?? false);
    return {
      account_id: id,
      environment: q.environment,
      rotated_at: s.rotatedAt?.toISOString() ?? null,
      previous_expires_at: s.previousExpiresAt?.toISOString() ?? null,
    };
  }
}
