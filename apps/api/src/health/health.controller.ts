import { Controller, Get, HttpCode, Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { SkipApiKey } from '@app/auth';
import { UnavailableError } from '@app/common';
import { REDIS, checkDependencies } from '@app/persistence';

@Controller()
@SkipApiKey()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** The process is up. */
  @Get('healthz')
  @HttpCode(200)
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** MySQL and Redis answer; a 503 takes the pod out of the Service. */
  @Get('readyz')
  async readyz(): Promise<{ status: 'ok'; checks: Record<string, string> }> {
    const checks = await checkDependencies(this.db, this.redis);
    if (Object.values(checks).some((c) => c !== 'ok')) {
      const e = new UnavailableError(`not ready: ${JSON.stringify(checks)}`);
      e.extra.checks = checks;
      throw e;
    }
    return { status: 'ok', checks };
  }
}
