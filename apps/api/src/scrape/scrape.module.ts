import { Module } from '@nestjs/common';
import { NetGuardModule } from '@app/net-guard';
import { AuthModule } from '@app/auth';
import { JobStateModule } from '@app/jobs';
import { ResultCacheModule } from '@app/result-cache';
import { JobsModule } from '../jobs/jobs.module';
import { SessionsModule } from '../sessions/sessions.module';
import { ScrapeController } from './scrape.controller';
import { ScrapeService } from './scrape.service';
import { BatchService } from './batch.service';
import { UrlChecker } from './url-checker';

@Module({
  imports: [NetGuardModule, JobsModule, JobStateModule, AuthModule, SessionsModule, ResultCacheModule],
  controllers: [ScrapeController],
  providers: [ScrapeService, BatchService, UrlChecker],
  exports: [UrlChecker, ScrapeService, BatchService],
})
export class ScrapeModule {}
