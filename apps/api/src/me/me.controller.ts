import { Controller, Get } from '@nestjs/common';
import { AuthContext, CurrentAuth, CurrentUsageGeneration, UsageService, UsageSummary } from '@app/auth';

interface MeResponse {
  user: { email: string; plan: string; limit: number };
  usage: UsageSummary;
}

/** Spec "GET /v1/me": the plan of the key's account and the usage of the key's environment. */
@Controller('v1/me')
export class MeController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  async me(
    @CurrentAuth() auth: AuthContext,
    @CurrentUsageGeneration() usageGeneration: string | null,
  ): Promise<MeResponse> {
    return {
      user: { email: auth.email, plan: auth.plan.name, limit: auth.plan.monthlyQuota },
      usage: await this.usage.summary(auth.accountId, auth.environment, usageGeneration),
    };
  }
}
