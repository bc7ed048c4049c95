import { ApiProperty } from '@nestjs/swagger';
import type { SessionView } from '@app/sessions';

/** A live session: never its cookies or storage. */
export class SessionDto implements SessionView {
  @ApiProperty({ description: 'The `session_id` the requests gave.', example: 'shop-login-1' })
  id: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When a request first named it (or named it again after it expired).',
  })
  created_at: string;

  @ApiProperty({ format: 'date-time', description: 'The last request or page that used it.' })
  last_used_at: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When it is forgotten unless used again (SESSION_IDLE_MINUTES after its last use).',
  })
  expires_at: string;
}

export class SessionListDto {
  @ApiProperty({ type: [SessionDto], description: 'The most recently used first.' })
  data: SessionDto[];
}
