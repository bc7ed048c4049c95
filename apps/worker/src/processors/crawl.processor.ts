import { Injectable } from '@nestjs/common';
import { CrawlRunner } from '../crawl/crawl-runner.service';
import { JobHandlers, QueueProcessor } from './job-handlers';

/** Thin: a `crawl-page` job is one page of a crawl. */
@Injectable()
export class CrawlProcessor implements QueueProcessor<'crawl'> {
  readonly queue = 'crawl' as const;

  constructor(private readonly crawls: CrawlRunner) {}

  readonly handlers: JobHandlers<'crawl'> = {
    'crawl-page': (d) => this.crawls.run(d),
  };
}
