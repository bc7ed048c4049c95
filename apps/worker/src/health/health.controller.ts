import { Controller, Get, Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS, checkDependencies } from '@app/persistence';
import { UnavailableError } from '@app/common';

/** The worker's small HTTP port (WORKER_PORT): the same probes as the API. */
@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async readyz(): Promise<{ status: 'ok'; checks: Record<string, string> }> {
    const checks = await checkDependencies(this.db, this.redis);
    if (Object.values(checks).some((c) => c !== 'ok'))
      throw new UnavailableError(`not ready: ${JSON.stringify(checks)}`);
    return { status: 'ok', checks };
  }
}
