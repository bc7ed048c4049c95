import { Injectable } from '@nestjs/common';
import { RenderConcurrency } from '@app/rendering';
import { PageRunner } from '../render/page-runner.service';
import { PageStep } from '../render/page-step';
import { BatchExpander } from '../render/batch-expander.service';
import { SiteMapper } from '../map/site-mapper.service';
import { JobHandlers, QueueProcessor } from './job-handlers';

/** Thin: each render job name goes to the service that does the work. */
@Injectable()
export class RenderProcessor implements QueueProcessor<'render'> {
  readonly queue = 'render' as const;
  /**
   * Jobs taken at once: the highest browser level, so pages are there when the level rises; pages
   * past the level in force wait for a browser slot, and those that need no browser do not.
   */
  readonly concurrency: number;

  constructor(
    private readonly step: PageStep,
    private readonly pages: PageRunner,
    private readonly batches: BatchExpander,
    private readonly mapper: SiteMapper,
    rendering: RenderConcurrency,
  ) {
    this.concurrency = rendering.max;
  }

  readonly handlers: JobHandlers<'render'> = {
    'scrape-sync': (d, job) => this.step.sync(d, job),
    pages: (d) => this.pages.run(d),
    expand: (d) => this.batches.expand(d),
    map: (d) => this.mapper.map(d),
  };
}
