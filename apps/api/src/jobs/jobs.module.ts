import { Module } from '@nestjs/common';
import { JobStateModule } from '@app/jobs';
import { WebhooksModule } from '@app/webhooks';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

@Module({
  imports: [JobStateModule, WebhooksModule],
  controllers: [JobsController],
  providers: [JobsService],
  exports: [JobsService],
})
export class JobsModule {}
