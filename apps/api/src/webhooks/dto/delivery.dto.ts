import { ApiProperty } from '@nestjs/swagger';
import type { DeliveryStatus } from '@app/persistence';
import type { AttemptView, DeliveryDetail, DeliveryView } from '../delivery-log.service';
import { DELIVERY_STATUSES } from './deliveries-query.dto';

export class DeliveryDto implements DeliveryView {
  @ApiProperty({
    description: "The delivery's id, sent as `webhook-id` on every attempt and replay.",
    example: 'msg_01jdqz8k3m4n5p6q7r8s9t0v1w',
  })
  id: string;

  @ApiProperty()
  job_id: string;

  @ApiProperty({ description: 'Where it is sent.' })
  url: string;

  @ApiProperty({ enum: DELIVERY_STATUSES, description: '`failed`: retries exhausted (a dead letter).' })
  status: DeliveryStatus;

  @ApiProperty({ type: 'integer' })
  attempt_count: number;

  @ApiProperty({ type: 'integer' })
  replays: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  next_attempt_at: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  last_status_code: number | null;

  @ApiProperty({ type: String, nullable: true })
  last_error: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  delivered_at: string | null;
}

class AttemptDto implements AttemptView {
  @ApiProperty({ type: 'integer' })
  attempt_no: number;

  @ApiProperty()
  replay: boolean;

  @ApiProperty({ format: 'date-time' })
  started_at: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'The headers sent.' })
  request_headers: Record<string, string>;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The receiver's status code; null if none came.",
  })
  status_code: number | null;

  @ApiProperty({ type: 'integer' })
  latency_ms: number;

  @ApiProperty({ type: String, nullable: true, description: 'Timeout, TLS or connection error.' })
  error: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The start of the receiver's answer." })
  response_excerpt: string | null;
}

export class DeliveryDetailDto extends DeliveryDto implements DeliveryDetail {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The logged request body: `{job_id, status, result}` (plus `total`, `completed`, `failed` for batches and crawls).',
  })
  payload: unknown;

  @ApiProperty({ type: [AttemptDto], description: 'Oldest first.' })
  attempts: AttemptDto[];
}

export class DeliveryListDto {
  @ApiProperty({ type: [DeliveryDto] })
  data: DeliveryDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Cursor of the next page (`?cursor=`), or null.',
  })
  next: string | null;
}

export class ReplayResultDto {
  @ApiProperty({ type: 'integer', description: 'Deliveries sent again by this call (at most 1,000).' })
  replayed: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` with the same filter to replay the rest; null when done.',
  })
  next: string | null;
}

export class WebhookSecretDto {
  @ApiProperty({ description: 'The signing secret: `whsec_` + base64 of 32 random bytes.' })
  secret: string;

  @ApiProperty({ enum: ['production', 'sandbox'] })
  environment: 'production' | 'sandbox';

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  rotated_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Until when the previous secret also signs; null when only `secret` does.',
  })
  previous_expires_at: string | null;
}
