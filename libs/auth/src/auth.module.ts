import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account, ApiKey, Plan, QuotaMonthly, UsageDaily } from '@app/persistence';
import { AccountsService } from './accounts.service';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { AuthCache } from './auth-cache';
import { QuotaService } from './quota.service';
import { RateLimitGuard } from './rate-limit.guard';
import { TokenBucket } from './token-bucket';
import { UsageService } from './usage.service';

const SERVICES = [
  AuthCache,
  ApiKeysService,
  AccountsService,
  ApiKeyGuard,
  UsageService,
  TokenBucket,
  RateLimitGuard,
  QuotaService,
];

@Module({
  imports: [TypeOrmModule.forFeature([Account, ApiKey, Plan, UsageDaily, QuotaMonthly])],
  providers: SERVICES,
  exports: SERVICES,
})
export class AuthModule {}
