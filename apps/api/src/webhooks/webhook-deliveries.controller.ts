import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { AuthContext, CurrentAuth } from '@app/auth';
import { DeliveryListQueryDto, ReplayFilterDto, toDeliveryFilter } from './dto/deliveries-query.dto';
import { DeliveryDetail, DeliveryLog, DeliveryView } from './delivery-log.service';

/** The delivery log (spec "Webhook delivery log"); dead letters are `status=failed`. */
@Controller('v1/webhooks/deliveries')
export class WebhookDeliveriesController {
  constructor(private readonly log: DeliveryLog) {}

  @Get()
  async list(@CurrentAuth() auth: AuthContext, @Query() q: DeliveryListQueryDto) {
    return this.log.list(auth, { ...toDeliveryFilter(q), limit: q.limit ?? 50 });
  }

  /** Bulk replay, e.g. `{"status": "failed", "since": "2026-11-01T00:00:00Z"}`. */
  @Post('replay')
  @HttpCode(202)
  async replayMatching(@CurrentAuth() auth: AuthContext, @Body() filter: ReplayFilterDto) {
    return this.log.replayMatching(auth, toDeliveryFilter(filter));
  }

  @Get(':id')
  async get(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<DeliveryDetail> {
    return this.log.get(auth, id);
  }

  /** Sends the logged payload again (new attempts, same webhook-id). */
  @Post(':id/replay')
  @HttpCode(202)
  async replay(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<DeliveryView> {
    return this.log.replay(auth, id);
  }
}
