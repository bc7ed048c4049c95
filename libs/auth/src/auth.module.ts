import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account, ApiKey, Plan, UsageDaily } from '@app/persistence';
import { AccountsService } from './accounts.service';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { UsageService } from './usage.service';

@Module({
  imports: [TypeOrmModule.forFeature([Account, ApiKey, Plan, UsageDaily])],
  providers: [ApiKeysService, AccountsService, ApiKeyGuard, UsageService],
  exports: [ApiKeysService, AccountsService, ApiKeyGuard, UsageService],
})
export class AuthModule {}
