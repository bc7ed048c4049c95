import { Controller, Get, Header } from '@nestjs/common';
import { Registry } from 'prom-client';

/** Prometheus scrapes the worker on WORKER_PORT, beside its probes. */
@Controller()
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get('metrics')
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
