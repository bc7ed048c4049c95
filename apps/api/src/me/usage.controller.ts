import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AuthContext, CurrentAuth, UsageService } from '@app/auth';
import { ApiErrors, CustomerApi } from '../common/openapi';
import { UsageQueryDto } from './dto/usage-query.dto';
import { UsageSeriesDto } from './me.dto';

/** `GET /v1/usage?days=30`: finished pages a UTC day, of the key's environment. */
@Controller('v1/usage')
@CustomerApi('account')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @ApiOperation({ summary: "Finished pages a UTC day, of the key's environment" })
  @ApiOkResponse({ type: UsageSeriesDto })
  @ApiErrors(400)
  async daily(@CurrentAuth() auth: AuthContext, @Query() q: UsageQueryDto): Promise<UsageSeriesDto> {
    return { data: await this.usage.daily(auth.accountId, auth.environment, q.days ?? 30) };
  }
}
