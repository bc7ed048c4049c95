import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { DeliveryDetail, DeliveryLog, DeliveryView } from '../webhooks/delivery-log.service';
import { toDeliveryFilter } from '../webhooks/dto/deliveries-query.dto';
import { AdminRoute } from './admin.guard';
import { Audited } from './audit.interceptor';
import { AdminDeliveryListQueryDto, AdminReplayFilterDto } from './admin.dto';

/** The delivery log of every account (dead letters: `status=failed`), through the customer's DeliveryLog. */
@Controller('admin/v1/webhooks/deliveries')
@AdminRoute()
export class AdminDeliveriesController {
  constructor(private readonly log: DeliveryLog) {}

  @Get()
  @ApiOperation({ summary: 'Webhook deliveries of every account' })
  async list(@Query() q: AdminDeliveryListQueryDto) {
    const scope = { accountId: q.account_id, environment: q.environment };
    return this.log.list(scope, { ...toDeliveryFilter(q), limit: q.limit ?? 50 }, true);
  }

  /** Bulk replay over every account unless `account_id`/`environment` narrow it; 1000 a call, `next` goes on. */
  @Post('replay')
  @HttpCode(202)
  @Audited('delivery.replay_bulk')
  @ApiOperation({ summary: 'Replays matching deliveries of any account' })
  async replayMatching(@Body() f: AdminReplayFilterDto) {
    return this.log.replayMatching(
      { accountId: f.account_id, environment: f.environment },
      toDeliveryFilter(f),
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'One delivery with its payload and attempts' })
  async get(@Param('id') id: string): Promise<DeliveryDetail> {
    return this.log.get({}, id, true);
  }

  @Post(':id/replay')
  @HttpCode(202)
  @Audited('delivery.replay')
  @ApiOperation({ summary: 'Sends a logged delivery again' })
  async replay(@Param('id') id: string): Promise<DeliveryView> {
    return this.log.replay({}, id, true);
  }
}
