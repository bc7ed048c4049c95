import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Histogram, Registry } from 'prom-client';

/** Seconds; an API call is milliseconds, a sync scrape up to its 120 s timeout. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** The path metrics middleware is mounted on; Nest mounts it as a route of its own. */
export const EVERY_ROUTE = '*path';

/**
 * The route template a request matched (`/v1/jobs/:id`), never the raw path: ids in labels would
 * make a series per job. Requests that matched no route (left with the middleware's own) share one.
 */
export function routeOf(req: Request): string {
  const route: unknown = req.route;
  const path = (route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' && path !== `/${EVERY_ROUTE}` ? req.baseUrl + path : 'unmatched';
}

/** `2xx`, `4xx`...: the class, since exact codes per route multiply series for little insight. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

@Injectable()
export class HttpMetrics implements NestMiddleware {
  private readonly duration: Histogram<'method' | 'route' | 'status_class'>;

  constructor(registry: Registry) {
    this.duration = new Histogram({
      name: 'scraper_http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status class, from arrival to the last byte sent.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: BUCKETS,
      registers: [registry],
    });
  }

  use(req: Request, res: Response, next: NextFunction): void {
    const end = this.duration.startTimer();
    // req.route is only known once the router matched, so the labels are read when the answer is out.
    res.once('finish', () =>
      end({ method: req.method, route: routeOf(req), status_class: statusClass(res.statusCode) }),
    );
    next();
  }
}
