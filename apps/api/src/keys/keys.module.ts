import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { KeysController } from './keys.controller';

@Module({ imports: [AuthModule], controllers: [KeysController] })
export class KeysModule {}
