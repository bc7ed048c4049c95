import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class UsageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 90,
    default: 30,
    description: 'Days up to today.',
  })
  @IsOptional()
  @Max(90)
  @Min(1)
  @IsInt()
  @Type(() => Number)
  days?: number;
}
