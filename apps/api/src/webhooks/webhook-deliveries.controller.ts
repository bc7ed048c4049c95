import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { AuthContext, CurrentAuth } from '@app/auth';
import { ApiErrors, CustomerApi } from '../common/openapi';
import { DeliveryListQueryDto, ReplayFilterDto, toDeliveryFilter } from './dto/deliveries-query.dto';
import { DeliveryDetailDto, DeliveryDto, DeliveryListDto, ReplayResultDto } from './dto/delivery.dto';
import { DeliveryLog } from './delivery-log.service';

const DELIVERY_ID = { name: 'id', example: 'msg_01jdqz8k3m4n5p6q7r8s9t0v1w' };

/** The delivery log (spec "Webhook delivery log"); dead letters are `status=failed`. */
@Controller('v1/webhooks/deliveries')
@CustomerApi('webhooks')
export class WebhookDeliveriesController {
  constructor(private readonly log: DeliveryLog) {}

  @Get()
  @ApiOperation({ summary: 'The webhook delivery log, newest first (dead letters: status=failed)' })
  @ApiOkResponse({ type: DeliveryListDto })
  @ApiErrors(400)
  async list(@CurrentAuth() auth: AuthContext, @Query() q: DeliveryListQueryDto): Promise<DeliveryListDto> {
    return this.log.list(auth, { ...toDeliveryFilter(q), limit: q.limit ?? 50 });
  }

  /** Bulk replay, e.g. `{"status": "failed", "since": "2026-11-01T00:00:00Z"}`. */
  @Post('replay')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Replays up to 1,000 matching deliveries, oldest first',
    description:
      'E.g. `{"status": "failed", "since": "2026-11-01T00:00:00Z"}`; `next` continues the same filter.',
  })
  @ApiAcceptedResponse({ type: ReplayResultDto })
  @ApiErrors(400, 413)
  async replayMatching(
    @CurrentAuth() auth: AuthContext,
    @Body() filter: ReplayFilterDto,
  ): Promise<ReplayResultDto> {
    return this.log.replayMatching(auth, toDeliveryFilter(filter));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One delivery: its logged payload and every attempt' })
  @ApiParam(DELIVERY_ID)
  @ApiOkResponse({ type: DeliveryDetailDto })
  @ApiErrors(404)
  async get(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<DeliveryDetailDto> {
    return this.log.get(auth, id);
  }

  /** Sends the logged payload again (new attempts, same webhook-id). */
  @Post(':id/replay')
  @HttpCode(202)
  @ApiOperation({ summary: 'Sends the logged payload again (same webhook-id, a new round of retries)' })
  @ApiParam(DELIVERY_ID)
  @ApiAcceptedResponse({ type: DeliveryDto })
  @ApiErrors(404)
  async replay(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<DeliveryDto> {
    return this.log.replay(auth, id);
  }
}
