import { Controller, Get, HttpCode, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { SkipApiKey } from '@app/auth';
import { UnavailableError } from '@app/common';
import { REDIS, checkDependencies } from '@app/persistence';
import { ApiErrors } from '../common/openapi';

class HealthDto {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';
}

class ReadyDto extends HealthDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { mysql: 'ok', redis: 'ok' },
    description: "Each dependency's state; the 503 body carries the same `checks`.",
  })
  checks: Record<string, string>;
}

@Controller()
@SkipApiKey()
@ApiTags('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** The process is up. */
  @Get('healthz')
  @HttpCode(200)
  @ApiOperation({ summary: 'The process is up (liveness)', security: [] })
  @ApiOkResponse({ type: HealthDto })
  healthz(): HealthDto {
    return { status: 'ok' };
  }

  /** MySQL and Redis answer; a 503 takes the pod out of the Service. */
  @Get('readyz')
  @ApiOperation({ summary: 'MySQL and Redis answer (readiness); 503 while shutting down too', security: [] })
  @ApiOkResponse({ type: ReadyDto })
  @ApiErrors(503)
  async readyz(): Promise<ReadyDto> {
    const checks = await checkDependencies(this.db, this.redis);
    if (Object.values(checks).some((c) => c !== 'ok')) {
      const e = new UnavailableError(`not ready: ${JSON.stringify(checks)}`);
      e.extra.checks = checks;
      throw e;
    }
    return { status: 'ok', checks };
  }
}
