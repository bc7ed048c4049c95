import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Histogram, Registry } from 'prom-client';

/** Seconds; an API call is milliseconds, a sync scrape up to its 120 s timeout. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * The route template a request matched (`/v1/jobs/:id`), never the raw path: ids in labels would
 * make a series per job. Requests that matched no route (Fastify's not-found handler) share one.
 */
export function routeOf(req: FastifyRequest): string {
  return req.routeOptions.url ?? 'unmatched';
}

/** `2xx`, `4xx`...: the class, since exact codes per route multiply series for little insight. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/**
 * Adds a Fastify `onResponse` hook (the answer is out, the route known) to the app's instance. Run
 * from `onModuleInit`, before the app listens; the preview mode of the OpenAPI build has no adapter.
 */
export function onEveryResponse(
  adapterHost: HttpAdapterHost,
  observe: (req: FastifyRequest, reply: FastifyReply) => void,
): void {
  const fastify = adapterHost.httpAdapter?.getInstance<FastifyInstance>();
  fastify?.addHook('onResponse', (req, reply, done) => {
    observe(req, reply);
    done();
  });
}

@Injectable()
export class HttpMetrics implements OnModuleInit {
  private readonly duration: Histogram<'method' | 'route' | 'status_class'>;

  constructor(
    registry: Registry,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.duration = new Histogram({
      name: 'scraper_http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status class, from arrival to the last byte sent.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: BUCKETS,
      registers: [registry],
    });
  }

  onModuleInit(): void {
    onEveryResponse(this.adapterHost, (req, reply) =>
      this.duration.observe(
        { method: req.method, route: routeOf(req), status_class: statusClass(reply.statusCode) },
        reply.elapsedTime / 1000,
      ),
    );
  }
}
