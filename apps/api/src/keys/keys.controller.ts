import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiKeysService, ApiKeyView, AuthContext, CurrentAuth, IssuedApiKey } from '@app/auth';
import { CreateKeyDto } from './create-key.dto';

/** A customer rotates a leaked key without support: keys of the caller's own environment. */
@Controller('v1/keys')
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  async list(@CurrentAuth() auth: AuthContext): Promise<{ data: ApiKeyView[] }> {
    return { data: await this.keys.list(auth.accountId, auth.environment) };
  }

  @Post()
  @HttpCode(201)
  async create(@CurrentAuth() auth: AuthContext, @Body() body: CreateKeyDto): Promise<IssuedApiKey> {
    return this.keys.issue(auth.accountId, auth.environment, body.name ?? null);
  }

  @Delete(':id')
  async revoke(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<ApiKeyView> {
    return this.keys.revoke(id, { accountId: auth.accountId, environment: auth.environment });
  }
}
