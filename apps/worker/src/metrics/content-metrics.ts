import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { ContentPool, TASK_OUTCOMES } from '@app/rendering';

/** The content threads' figures (docs/decisions.md, "Content threads"), read when Prometheus scrapes. */
@Injectable()
export class ContentMetrics {
  constructor(registry: Registry, pool: ContentPool) {
    const registers = [registry];
    new Gauge({
      name: 'scraper_content_threads',
      help: 'Threads that parse and convert pages (CONTENT_THREADS).',
      registers,
      collect() {
        this.set(pool.stats().threads);
      },
    });
    new Gauge({
      name: 'scraper_content_tasks',
      help: 'Content tasks now: busy on a thread, queued waiting for one.',
      labelNames: ['state'],
      registers,
      collect() {
        const { busy, queued } = pool.stats();
        this.set({ state: 'busy' }, busy);
        this.set({ state: 'queued' }, queued);
      },
    });
    // The pool counts for itself; these counters mirror its figures at each scrape.
    new Counter({
      name: 'scraper_content_tasks_total',
      help: 'Content tasks ended: success, too_complex (past CONTENT_TIMEOUT_MS or CONTENT_HEAP_MB), error (the thread failed otherwise).',
      labelNames: ['outcome'],
      registers,
      collect() {
        this.reset();
        const { tasks } = pool.stats();
        for (const outcome of TASK_OUTCOMES) this.inc({ outcome }, tasks[outcome]);
      },
    });
    new Counter({
      name: 'scraper_content_threads_replaced_total',
      help: 'Content threads ended for a task past a bound, by the bound: deadline (CONTENT_TIMEOUT_MS) or heap (CONTENT_HEAP_MB).',
      labelNames: ['bound'],
      registers,
      collect() {
        this.reset();
        const { replaced } = pool.stats();
        this.inc({ bound: 'deadline' }, replaced.deadline);
        this.inc({ bound: 'heap' }, replaced.heap);
      },
    });
  }
}
