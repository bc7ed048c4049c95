import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  AccountsService,
  AccountView,
  ApiKeysService,
  ApiKeyView,
  CreatedAccount,
  IssuedApiKey,
  toAccountView,
} from '@app/auth';
import { AdminRoute } from './admin.guard';
import { CreateAccountDto, IssueKeyDto } from './admin.dto';

@Controller('admin/v1')
@AdminRoute()
export class AdminAccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly keys: ApiKeysService,
  ) {}

  /** Creates an account with one production and one sandbox key, returned once. */
  @Post('accounts')
  @HttpCode(201)
  async create(@Body() body: CreateAccountDto): Promise<CreatedAccount> {
    return this.accounts.create(body.email, body.plan);
  }

  @Get('accounts/:id')
  async get(@Param('id') id: string): Promise<AccountView & { keys: ApiKeyView[] }> {
    const account = await this.accounts.get(id);
    return { ...toAccountView(account), keys: await this.keys.list(id) };
  }

  @Post('accounts/:id/keys')
  @HttpCode(201)
  async issueKey(@Param('id') id: string, @Body() body: IssueKeyDto): Promise<IssuedApiKey> {
    await this.accounts.get(id);
    return this.keys.issue(id, body.environment, body.name ?? null);
  }

  /** Effective on the next request: authentication reads the key row every time. */
  @Delete('keys/:id')
  async revokeKey(@Param('id') id: string): Promise<ApiKeyView> {
    return this.keys.revoke(id);
  }
}
