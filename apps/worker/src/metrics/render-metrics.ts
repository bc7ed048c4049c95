import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BrowserPoolStats, RenderService } from '@app/rendering';

/** Seconds; most pages take well under a second, the budget runs to 120 s. */
const RENDER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];

/**
 * Pages rendered and how long they took (heard from RenderService), and the Playwright browser
 * pool's figures (read from the pool when Prometheus scrapes).
 */
@Injectable()
export class RenderMetrics {
  constructor(registry: Registry, renderer: RenderService, pool: BrowserPoolStats) {
    const registers = [registry];
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

    new Gauge({
      name: 'scraper_browser_pool_browsers',
      help: 'Browsers of the Playwright pool: in_use has a page open, idle has none.',
      labelNames: ['state'],
      registers,
      collect() {
        const s = pool.read();
        this.set({ state: 'in_use' }, s.browsersInUse);
        this.set({ state: 'idle' }, s.browsers - s.browsersInUse);
      },
    });
    new Gauge({
      name: 'scraper_browser_pool_contexts',
      help: 'Browser contexts of the Playwright pool: in_use has a page open, idle has none.',
      labelNames: ['state'],
      registers,
      collect() {
        const s = pool.read();
        this.set({ state: 'in_use' }, s.contextsInUse);
        this.set({ state: 'idle' }, s.contexts - s.contextsInUse);
      },
    });
    new Gauge({
      name: 'scraper_browser_pool_pages_in_flight',
      help: 'Pages open in the Playwright pool.',
      registers,
      collect() {
        this.set(pool.read().pagesInFlight);
      },
    });
    // The pool counts for itself; these counters mirror its figures at each scrape.
    new Counter({
      name: 'scraper_browser_launches_total',
      help: 'Browsers the Playwright pool launched.',
      registers,
      collect() {
        this.reset();
        this.inc(pool.read().browsersLaunched);
      },
    });
    new Counter({
      name: 'scraper_browser_restarts_total',
      help: 'Browsers replaced: recycled after BROWSER_MAX_PAGES pages or when stuck, crashed when they went away.',
      labelNames: ['reason'],
      registers,
      collect() {
        const s = pool.read();
        this.reset();
        this.inc({ reason: 'recycled' }, s.browsersRecycled);
        this.inc({ reason: 'crashed' }, s.browsersLost);
      },
    });
    new Counter({
      name: 'scraper_browser_page_retries_total',
      help: 'Pages started again on a fresh browser after theirs went away.',
      registers,
      collect() {
        this.reset();
        this.inc(pool.read().retries);
      },
    });
  }
}
