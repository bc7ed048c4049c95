import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account, Admin, AdminKey, ApiKey, Plan, QuotaMonthly, UsageDaily } from '@app/persistence';
import { AccountsService } from './accounts.service';
import { AdminsService } from './admins.service';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { AuthCache } from './auth-cache';
import { QuotaService } from './quota.service';
import { RateLimitGuard } from './rate-limit.guard';
import { PlansService } from './plans.service';
import { TokenBucket } from './token-bucket';
import { UsageService } from './usage.service';

const SERVICES = [
  AuthCache,
  ApiKeysService,
  AccountsService,
  AdminsService,
  PlansService,
  ApiKeyGuard,
  UsageService,
  TokenBucket,
  RateLimitGuard,
  QuotaService,
];

@Module({
  imports: [TypeOrmModule.forFeature([Account, ApiKey, Plan, UsageDaily, QuotaMonthly, Admin, AdminKey])],
  providers: SERVICES,
  exports: SERVICES,
})
export class AuthModule {}
