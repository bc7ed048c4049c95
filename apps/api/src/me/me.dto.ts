import { ApiProperty } from '@nestjs/swagger';
import type { UsageDay, UsageSummary } from '@app/auth';

class UserDto {
  @ApiProperty({ format: 'email' })
  email: string;

  @ApiProperty({
    example: 'starter',
    description: 'free, starter, pro, enterprise or a plan an operator made.',
  })
  plan: string;

  @ApiProperty({ type: 'integer', description: "The plan's monthly page quota.", example: 50000 })
  limit: number;
}

/** A request is one page fetch; days and months are UTC (docs/api.md, Usage). */
class UsageDto implements UsageSummary {
  @ApiProperty({ type: 'integer', description: 'Pages finished this month.' })
  requests_this_month: number;

  @ApiProperty({ type: 'integer', description: 'Pages finished today.' })
  requests_today: number;

  @ApiProperty({ description: 'Average page render time this month, in milliseconds.' })
  avg_response_ms: number;

  @ApiProperty({
    minimum: 0,
    maximum: 1,
    description: 'Fraction of pages finished this month that succeeded.',
  })
  success_rate: number;
}

/** Spec "GET /v1/me". */
export class MeDto {
  @ApiProperty({ type: UserDto })
  user: UserDto;

  @ApiProperty({ type: UsageDto, description: "Usage of the key's environment." })
  usage: UsageDto;
}

class UsageDayDto implements UsageDay {
  @ApiProperty({ format: 'date', example: '2026-11-23' })
  day: string;

  @ApiProperty({ type: 'integer', description: 'Pages finished that day.' })
  pages: number;

  @ApiProperty({ type: 'integer' })
  succeeded: number;

  @ApiProperty({ type: 'integer' })
  failed: number;
}

/** GET /v1/usage. */
export class UsageSeriesDto {
  @ApiProperty({ type: [UsageDayDto] })
  data: UsageDayDto[];
}
