import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Registry } from 'prom-client';
import { routeOf } from '@app/metrics';

/** Calls refused for the monthly quota (402) and by the per-minute bucket (429), by route template. */
@Injectable()
export class RejectionMetrics implements NestMiddleware {
  private readonly byStatus: Map<number, Counter<'route'>>;

  constructor(registry: Registry) {
    const counter = (name: string, help: string) =>
      new Counter({ name, help, labelNames: ['route'], registers: [registry] });
    this.byStatus = new Map([
      [402, counter('scraper_quota_rejections_total', 'Requests refused with 402 quota_exceeded.')],
      [429, counter('scraper_rate_limit_rejections_total', 'Requests refused with 429 rate_limited.')],
    ]);
  }

  use(req: Request, res: Response, next: NextFunction): void {
    res.once('finish', () => this.byStatus.get(res.statusCode)?.inc({ route: routeOf(req) }));
    next();
  }
}
