import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsISO8601,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import type { DeliveryStatus } from '@app/persistence';
import type { DeliveryFilter } from '../delivery-log.service';

export const DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

/** What both the list and a bulk replay filter on; `cursor` is the `next` of an earlier answer. */
export class DeliveryFilterDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: '`failed`: the dead letters.' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({ maxLength: 32 })
  @IsOptional()
  @MaxLength(32)
  @IsString()
  job_id?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'The `next` of an earlier answer.' })
  @IsOptional()
  @MaxLength(200)
  @IsString()
  cursor?: string;
}

/** POST /v1/webhooks/deliveries/replay: which deliveries to send again (e.g. every dead one since T). */
export class ReplayFilterDto extends DeliveryFilterDto {
  /** Deliveries created at or after this time. */
  @ApiPropertyOptional({ format: 'date-time', description: 'Deliveries created at or after this time.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string;

  /** Deliveries created before this time. */
  @ApiPropertyOptional({ format: 'date-time', description: 'Deliveries created before this time.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;
}

export class DeliveryListQueryDto extends ReplayFilterDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Max(100)
  @Min(1)
  @IsInt()
  @Type(() => Number)
  limit?: number;
}

export const toDeliveryFilter = (q: ReplayFilterDto): DeliveryFilter => ({
  status: q.status,
  jobId: q.job_id,
  since: q.since,
  until: q.until,
  cursor: q.cursor,
});

export class RotateQueryDto {
  /** For a leaked secret: the old one stops signing at once instead of after 24 h. */
  @ApiPropertyOptional({
    default: false,
    description: 'For a leaked secret: the old one stops signing at once instead of after 24 h.',
  })
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  expire_now?: boolean;
}
