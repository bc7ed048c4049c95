import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { JobStateModule } from '@app/jobs';
import { ScrapeModule } from '../scrape/scrape.module';
import { MapController } from './map.controller';
import { MapService } from './map.service';

@Module({
  imports: [AuthModule, JobStateModule, ScrapeModule],
  controllers: [MapController],
  providers: [MapService],
  exports: [MapService],
})
export class MapModule {}
