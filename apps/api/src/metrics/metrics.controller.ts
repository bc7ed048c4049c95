import { Controller, Get, Header } from '@nestjs/common';
import { Registry } from 'prom-client';
import { SkipApiKey } from '@app/auth';

/** Prometheus scrapes without a key, as probes do; keep /metrics off the public ingress. */
@Controller()
@SkipApiKey()
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get('metrics')
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
