import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BrowserEngine } from '@app/queue-contracts';
import { BrowserPoolStats, RenderConcurrency, RenderService, type PoolStats } from '@app/rendering';

/** Seconds; most pages take well under a second, the budget runs to 120 s. */
const RENDER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];

/**
 * Pages rendered and how long they took (heard from RenderService), and the browser pools' figures
 * (read from the pools when Prometheus scrapes).
 */
@Injectable()
export class RenderMetrics {
  constructor(
    registry: Registry,
    renderer: RenderService,
    pool: BrowserPoolStats,
    concurrency: RenderConcurrency,
  ) {
    const registers = [registry];
    new Gauge({
      name: 'scraper_render_concurrency',
      help: 'Browser pages this worker lets render at once now: RENDER_CONCURRENCY, or the level autoscaling set.',
      registers,
      collect() {
        this.set(concurrency.level());
      },
    });
    const pages = new Counter({
      name: 'scraper_pages_rendered_total',
      help: 'Renders by the engine that did them and outcome: success, a page error code, or engine_failure.',
      labelNames: ['engine', 'outcome'],
      registers,
    });
    const duration = new Histogram({
      name: 'scraper_render_duration_seconds',
      help: 'Time to a page result (timings.total_ms) by the engine that rendered it.',
      labelNames: ['engine'],
      buckets: RENDER_BUCKETS,
      registers,
    });
    renderer.onRendered(({ engine, outcome, seconds }) => {
      pages.inc({ engine, outcome });
      if (outcome !== 'engine_failure') duration.observe({ engine }, seconds);
    });

    // Each browser engine keeps its own pool; `engine` tells them apart, as on the page series.
    const pools = () => Object.entries(pool.read()) as [BrowserEngine, PoolStats][];
    new Gauge({
      name: 'scraper_browser_pool_browsers',
      help: "Browsers of each engine's pool: in_use has a page open, idle has none.",
      labelNames: ['engine', 'state'],
      registers,
      collect() {
        for (const [engine, s] of pools()) {
          this.set({ engine, state: 'in_use' }, s.browsersInUse);
          this.set({ engine, state: 'idle' }, s.browsers - s.browsersInUse);
        }
      },
    });
    new Gauge({
      name: 'scraper_browser_pool_contexts',
      help: "Browser contexts of each engine's pool: in_use has a page open, idle has none.",
      labelNames: ['engine', 'state'],
      registers,
      collect() {
        for (const [engine, s] of pools()) {
          this.set({ engine, state: 'in_use' }, s.contextsInUse);
          this.set({ engine, state: 'idle' }, s.contexts - s.contextsInUse);
        }
      },
    });
    new Gauge({
      name: 'scraper_browser_pool_pages_in_flight',
      help: "Pages open in each engine's pool.",
      labelNames: ['engine'],
      registers,
      collect() {
        for (const [engine, s] of pools()) this.set({ engine }, s.pagesInFlight);
      },
    });
    // The pools count for themselves; these counters mirror their figures at each scrape.
    new Counter({
      name: 'scraper_browser_launches_total',
      help: "Browsers each engine's pool launched.",
      labelNames: ['engine'],
      registers,
      collect() {
        this.reset();
        for (const [engine, s] of pools()) this.inc({ engine }, s.browsersLaunched);
      },
    });
    new Counter({
      name: 'scraper_browser_restarts_total',
      help: 'Browsers replaced: recycled after BROWSER_MAX_PAGES pages or when stuck, crashed when they went away.',
      labelNames: ['engine', 'reason'],
      registers,
      collect() {
        this.reset();
        for (const [engine, s] of pools()) {
          this.inc({ engine, reason: 'recycled' }, s.browsersRecycled);
          this.inc({ engine, reason: 'crashed' }, s.browsersLost);
        }
      },
    });
    new Counter({
      name: 'scraper_browser_page_retries_total',
      help: 'Pages started again: on a fresh browser after theirs went away, or on a new tab after a kept tab navigated under them.',
      labelNames: ['engine'],
      registers,
      collect() {
        this.reset();
        for (const [engine, s] of pools()) this.inc({ engine }, s.retries);
      },
    });
  }
}
