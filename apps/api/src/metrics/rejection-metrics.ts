import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Counter, Registry } from 'prom-client';
import { onEveryResponse, routeOf } from '@app/metrics';

/** Calls refused for the monthly quota (402) and by the per-minute bucket (429), by route template. */
@Injectable()
export class RejectionMetrics implements OnModuleInit {
  private readonly byStatus: Map<number, Counter<'route'>>;

  constructor(
    registry: Registry,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    const counter = (name: string, help: string) =>
      new Counter({ name, help, labelNames: ['route'], registers: [registry] });
    this.byStatus = new Map([
      [402, counter('scraper_quota_rejections_total', 'Requests refused with 402 quota_exceeded.')],
      [429, counter('scraper_rate_limit_rejections_total', 'Requests refused with 429 rate_limited.')],
    ]);
  }

  onModuleInit(): void {
    onEveryResponse(this.adapterHost, (req, reply) =>
      this.byStatus.get(reply.statusCode)?.inc({ route: routeOf(req) }),
    );
  }
}
