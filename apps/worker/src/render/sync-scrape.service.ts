import { Injectable } from '@nestjs/common';
import { UsageRecorder } from '@app/auth';
import type { PageResult, SyncScrapeData } from '@app/queue-contracts';
import { RenderService } from '@app/rendering';

/** POST /v1/scrape's page: rendered at once (sync jobs are first in the queue) and counted. */
@Injectable()
export class SyncScrape {
  constructor(
    private readonly renderer: RenderService,
    private readonly usage: UsageRecorder,
  ) {}

  async run({ accountId, environment, url, options }: SyncScrapeData): Promise<PageResult> {
    const result = await this.renderer.render({ url, index: 0, options, isolationKey: accountId });
    await this.usage.record(accountId, environment, {
      succeeded: !result.error,
      renderMs: result.timings.render_ms,
    });
    return result;
  }
}
