import { Injectable } from '@nestjs/common';
import { PageRunner } from '../render/page-runner.service';
import { PageStep } from '../render/page-step';
import { BatchExpander } from '../render/batch-expander.service';
import { JobHandlers, QueueProcessor } from './job-handlers';

/** Thin: each render job name goes to the service that does the work. */
@Injectable()
export class RenderProcessor implements QueueProcessor<'render'> {
  readonly queue = 'render' as const;

  constructor(
    private readonly step: PageStep,
    private readonly pages: PageRunner,
    private readonly batches: BatchExpander,
  ) {}

  readonly handlers: JobHandlers<'render'> = {
    'scrape-sync': (d) => this.step.sync(d),
    pages: (d) => this.pages.run(d),
    expand: (d) => this.batches.expand(d),
  };
}
