import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiKeysService, AuthContext, CurrentAuth } from '@app/auth';
import { ApiErrors, CustomerApi } from '../common/openapi';
import { CreateKeyDto } from './create-key.dto';
import { ApiKeyDto, ApiKeyListDto, IssuedApiKeyDto } from './key.dto';

/** A customer rotates a leaked key without support: keys of the caller's own environment. */
@Controller('v1/keys')
@CustomerApi('account')
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOperation({ summary: "The keys of the caller's environment (prefix and last 4 only)" })
  @ApiOkResponse({ type: ApiKeyListDto })
  async list(@CurrentAuth() auth: AuthContext): Promise<ApiKeyListDto> {
    return { data: await this.keys.list(auth.accountId, auth.environment) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: "A new key of the caller's environment, shown once" })
  @ApiCreatedResponse({ type: IssuedApiKeyDto })
  @ApiErrors(400, 413)
  async create(@CurrentAuth() auth: AuthContext, @Body() body: CreateKeyDto): Promise<IssuedApiKeyDto> {
    return this.keys.issue(auth.accountId, auth.environment, body.name ?? null);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revokes a key, effective on the next request' })
  @ApiOkResponse({ type: ApiKeyDto, description: 'The revoked key.' })
  @ApiErrors(404)
  async revoke(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<ApiKeyDto> {
    return this.keys.revoke(id, { accountId: auth.accountId, environment: auth.environment });
  }
}
