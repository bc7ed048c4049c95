import { Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AuthContext, CurrentAuth } from '@app/auth';
import { RevealedSecret, WebhookSecrets } from '@app/webhooks';
import { ApiErrors, CustomerApi } from '../common/openapi';
import { RotateQueryDto } from './dto/deliveries-query.dto';
import { WebhookSecretDto } from './dto/delivery.dto';

/**
 * The signing secret of the caller's account and environment (spec "Webhook secret"). These two
 * answers are the only place a secret ever appears; they are not cached.
 */
@Controller('v1/webhooks/secret')
@CustomerApi('webhooks')
export class WebhookSecretController {
  constructor(private readonly secrets: WebhookSecrets) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: "The webhook signing secret of the caller's environment (made on first use)" })
  @ApiOkResponse({ type: WebhookSecretDto })
  async reveal(@CurrentAuth() auth: AuthContext): Promise<WebhookSecretDto> {
    return toSecretView(auth, await this.secrets.reveal(auth));
  }

  /** A new secret; the old one keeps signing for 24 h, or stops now with `?expire_now=true`. */
  @Post('rotate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'A new signing secret; the old one keeps signing for 24 h unless expire_now' })
  @ApiOkResponse({ type: WebhookSecretDto })
  @ApiErrors(400)
  async rotate(@CurrentAuth() auth: AuthContext, @Query() q: RotateQueryDto): Promise<WebhookSecretDto> {
    return toSecretView(auth, await this.secrets.rotate(auth, q.expire_now ?? false));
  }
}

function toSecretView(auth: AuthContext, s: RevealedSecret): WebhookSecretDto {
  return {
    secret: s.secret,
    environment: auth.environment,
    created_at: s.createdAt.toISOString(),
    rotated_at: s.rotatedAt?.toISOString() ?? null,
    previous_expires_at: s.previousExpiresAt?.toISOString() ?? null,
  };
}
