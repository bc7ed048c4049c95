import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account, Admin, AdminKey, ApiKey, Plan, QuotaMonthly, UsageDaily } from '@app/persistence';
import { AccountsService } from './accounts.service';
import { AdminsService } from './admins.service';
import { Admission } from './admission';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { AuthCache } from './auth-cache';
import { AuthFailures } from './auth-failures';
import { QuotaService } from './quota.service';
import { PlansService } from './plans.service';
import { TokenBucket } from './token-bucket';
import { UsageKeys, UsageRecorder } from './usage-recorder';
import { UsageService } from './usage.service';

const SERVICES = [
  AuthCache,
  AuthFailures,
  ApiKeysService,
  AccountsService,
  AdminsService,
  PlansService,
  Admission,
  ApiKeyGuard,
  UsageService,
  TokenBucket,
  UsageKeys,
  UsageRecorder,
  QuotaService,
];

@Module({
  imports: [TypeOrmModule.forFeature([Account, ApiKey, Plan, UsageDaily, QuotaMonthly, Admin, AdminKey])],
  providers: SERVICES,
  exports: SERVICES,
})
export class AuthModule {}
