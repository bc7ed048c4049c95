import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { SkipApiKey } from '@app/auth';

/** Prometheus scrapes without a key, as probes do; keep /metrics off the public ingress. */
@Controller()
@SkipApiKey()
@ApiTags('health')
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get('metrics')
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  @ApiOperation({ summary: 'Prometheus metrics (README "Metrics")', security: [] })
  @ApiOkResponse({
    description: 'The Prometheus text exposition format.',
    content: { [Registry.PROMETHEUS_CONTENT_TYPE]: { schema: { type: 'string' } } },
  })
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
