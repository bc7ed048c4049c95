import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { MeController } from './me.controller';
import { UsageController } from './usage.controller';

@Module({ imports: [AuthModule], controllers: [MeController, UsageController] })
export class MeModule {}
