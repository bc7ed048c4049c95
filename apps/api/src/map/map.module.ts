import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { ScrapeModule } from '../scrape/scrape.module';
import { MapController } from './map.controller';
import { MapService } from './map.service';

@Module({
  imports: [AuthModule, ScrapeModule],
  controllers: [MapController],
  providers: [MapService],
})
export class MapModule {}
