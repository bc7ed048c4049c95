import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { ScrapeModule } from '../scrape/scrape.module';
import { SessionsModule } from '../sessions/sessions.module';
import { CrawlController } from './crawl.controller';
import { CrawlService } from './crawl.service';

@Module({
  imports: [JobsModule, ScrapeModule, SessionsModule],
  controllers: [CrawlController],
  providers: [CrawlService],
  exports: [CrawlService],
})
export class CrawlModule {}
