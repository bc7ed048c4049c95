import { ApiProperty } from '@nestjs/swagger';
import type { ApiKeyView, IssuedApiKey } from '@app/auth';
import { ENVIRONMENTS, type Environment } from '@app/persistence';

/** A key after creation: never the key itself. */
export class ApiKeyDto implements ApiKeyView {
  @ApiProperty({ example: 'key_01jdqz8k3m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ enum: ENVIRONMENTS })
  environment: Environment;

  @ApiProperty({ description: 'The first characters, to recognise the key.', example: 'osk_live_4f' })
  prefix: string;

  @ApiProperty({ example: 'x9Qz' })
  last4: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revoked_at: string | null;
}

export class IssuedApiKeyDto extends ApiKeyDto implements IssuedApiKey {
  @ApiProperty({ description: 'The key: shown in this answer only, stored only as a keyed hash.' })
  key: string;
}

export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyDto] })
  data: ApiKeyDto[];
}
