import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/auth';
import { AuditEntry } from '@app/persistence';
import { WebhooksModule as WebhooksLibModule } from '@app/webhooks';
import { JobsModule } from '../jobs/jobs.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AdminAccountsController } from './admin-accounts.controller';
import { AdminAdminsController } from './admin-admins.controller';
import { AdminDeliveriesController } from './admin-deliveries.controller';
import { AdminJobsController } from './admin-jobs.controller';
import { AdminPlansController } from './admin-plans.controller';
import { AdminGuard } from './admin.guard';
import { AuditInterceptor } from './audit.interceptor';
import { AuditLog } from './audit-log.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([AuditEntry]),
    AuthModule,
    JobsModule,
    WebhooksModule,
    WebhooksLibModule,
  ],
  controllers: [
    AdminAccountsController,
    AdminAdminsController,
    AdminJobsController,
    AdminDeliveriesController,
    AdminPlansController,
  ],
  providers: [AdminGuard, AuditInterceptor, AuditLog],
})
export class AdminModule {}
