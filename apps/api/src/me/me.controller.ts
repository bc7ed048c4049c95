import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AuthContext, CurrentAuth, CurrentUsageGeneration, UsageService } from '@app/auth';
import { CustomerApi } from '../common/openapi';
import { MeDto } from './me.dto';

/** Spec "GET /v1/me": the plan of the key's account and the usage of the key's environment. */
@Controller('v1/me')
@CustomerApi('account')
export class MeController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @ApiOperation({ summary: "The caller's plan, limit and usage" })
  @ApiOkResponse({ type: MeDto })
  async me(
    @CurrentAuth() auth: AuthContext,
    @CurrentUsageGeneration() usageGeneration: string | null,
  ): Promise<MeDto> {
    return {
      user: { email: auth.email, plan: auth.plan.name, limit: auth.plan.monthlyQuota },
      usage: await this.usage.summary(auth.accountId, auth.environment, usageGeneration),
    };
  }
}
