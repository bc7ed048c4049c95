import { Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { AuthContext, CurrentAuth } from '@app/auth';
import { RevealedSecret, WebhookSecrets } from '@app/webhooks';
import { RotateQueryDto } from './dto/deliveries-query.dto';

export interface SecretView {
  secret: string;
  environment: AuthContext['environment'];
  created_at: string;
  rotated_at: string | null;
  /** Until when the previous secret also signs; null when only `secret` does. */
  previous_expires_at: string | null;
}

/**
 * The signing secret of the caller's account and environment (spec "Webhook secret"). These two
 * answers are the only place a secret ever appears; they are not cached.
 */
@Controller('v1/webhooks/secret')
export class WebhookSecretController {
  constructor(private readonly secrets: WebhookSecrets) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async reveal(@CurrentAuth() auth: AuthContext): Promise<SecretView> {
    return toSecretView(auth, await this.secrets.reveal(auth));
  }

  /** A new secret; the old one keeps signing for 24 h, or stops now with `?expire_now=true`. */
  @Post('rotate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async rotate(@CurrentAuth() auth: AuthContext, @Query() q: RotateQueryDto): Promise<SecretView> {
    return toSecretView(auth, await this.secrets.rotate(auth, q.expire_now ?? false));
  }
}

function toSecretView(auth: AuthContext, s: RevealedSecret): SecretView {
  return {
    secret: s.secret,
    environment: auth.environment,
    created_at: s.createdAt.toISOString(),
    rotated_at: s.rotatedAt?.toISOString() ?? null,
    previous_expires_at: s.previousExpiresAt?.toISOString() ?? null,
  };
}
