import { Module } from '@nestjs/common';
import { CrawlModule } from '../crawl/crawl.module';
import { JobsModule } from '../jobs/jobs.module';
import { MapModule } from '../map/map.module';
import { ScrapeModule } from '../scrape/scrape.module';
import { FirecrawlController } from './firecrawl.controller';
import { FirecrawlService } from './firecrawl.service';

/** Firecrawl-compatible endpoints under /firecrawl (docs/firecrawl.md). */
@Module({
  imports: [ScrapeModule, CrawlModule, MapModule, JobsModule],
  controllers: [FirecrawlController],
  providers: [FirecrawlService],
})
export class FirecrawlModule {}
