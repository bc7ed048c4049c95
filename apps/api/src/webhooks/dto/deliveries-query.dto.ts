import { ApiPropertyOptional, IntersectionType, PickType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import type { DeliveryStatus } from '@app/persistence';
import { PageQueryDto } from '../../common/page-query.dto';
import type { DeliveryFilter } from '../delivery-log.service';

export const DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

/** What both the list and a bulk replay filter on; `cursor` is the `next` of an earlier answer. */
export class DeliveryFilterDto extends PickType(PageQueryDto, ['cursor'] as const) {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: '`failed`: the dead letters.' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({ maxLength: 32 })
  @IsOptional()
  @MaxLength(32)
  @IsString()
  job_id?: string;
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

export class DeliveryListQueryDto extends IntersectionType(ReplayFilterDto, PageQueryDto) {}

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
