import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { AdminAccountsController } from './admin-accounts.controller';
import { AdminGuard } from './admin.guard';

@Module({ imports: [AuthModule], controllers: [AdminAccountsController], providers: [AdminGuard] })
export class AdminModule {}
