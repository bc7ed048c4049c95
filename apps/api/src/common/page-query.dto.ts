import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** The paging fields every listing takes (jobs, deliveries, the admin lists); filters extend it. */
export class PageQueryDto {
  @ApiPropertyOptional({ maxLength: 200, description: 'The `next` of an earlier answer.' })
  @IsOptional()
  @MaxLength(200)
  @IsString()
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Max(100)
  @Min(1)
  @IsInt()
  @Type(() => Number)
  limit?: number;
}
