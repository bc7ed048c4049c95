import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/auth';
import { Job, JobPage, JobResultsReader } from '@app/persistence';
import { WebhooksModule } from '@app/webhooks';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

@Module({
  imports: [TypeOrmModule.forFeature([Job, JobPage]), AuthModule, WebhooksModule],
  controllers: [JobsController],
  providers: [JobsService, JobResultsReader],
  exports: [JobsService],
})
export class JobsModule {}
