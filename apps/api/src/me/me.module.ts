import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { MeController } from './me.controller';

@Module({ imports: [AuthModule], controllers: [MeController] })
export class MeModule {}
