import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class UsageQueryDto {
  @IsOptional()
  @Max(90)
  @Min(1)
  @IsInt()
  @Type(() => Number)
  days?: number;
}
