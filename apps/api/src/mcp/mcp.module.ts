import { Module } from '@nestjs/common';
import { CrawlModule } from '../crawl/crawl.module';
import { JobsModule } from '../jobs/jobs.module';
import { MapModule } from '../map/map.module';
import { ScrapeModule } from '../scrape/scrape.module';
import { CallerBackends } from './caller-backend';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';

@Module({
  imports: [ScrapeModule, CrawlModule, MapModule, JobsModule],
  controllers: [McpController],
  providers: [McpService, CallerBackends],
})
export class McpModule {}
