import { Injectable } from '@nestjs/common';
import { RenderConcurrency } from '@app/rendering';
import { CrawlRunner } from '../crawl/crawl-runner.service';
import { JobHandlers, QueueProcessor } from './job-handlers';

/** Thin: a `crawl-page` job is one page of a crawl. */
@Injectable()
export class CrawlProcessor implements QueueProcessor<'crawl'> {
  readonly queue = 'crawl' as const;
  /** As many crawl pages as the browser level may reach; those that need no browser are not held. */
  readonly concurrency: number;

  constructor(
    private readonly crawls: CrawlRunner,
    rendering: RenderConcurrency,
  ) {
    this.concurrency = rendering.max;
  }

  readonly handlers: JobHandlers<'crawl'> = {
    'crawl-page': (d) => this.crawls.run(d),
  };
}
