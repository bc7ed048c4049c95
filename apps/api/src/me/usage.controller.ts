import { Controller, Get, Query } from '@nestjs/common';
import { AuthContext, CurrentAuth, UsageDay, UsageService } from '@app/auth';
import { UsageQueryDto } from './dto/usage-query.dto';

/** DESIGN.md "GET /v1/usage?days=30": finished pages a UTC day, of the key's environment. */
@Controller('v1/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  async daily(@CurrentAuth() auth: AuthContext, @Query() q: UsageQueryDto): Promise<{ data: UsageDay[] }> {
    return { data: await this.usage.daily(auth.accountId, auth.environment, q.days ?? 30) };
  }
}
