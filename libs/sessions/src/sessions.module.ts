import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { secretBoxProvider } from '@app/persistence';
import { Session } from './session.entity';
import { SessionStore } from './session-store';

/** The sessions table and every statement on it. Needs the importing app's TypeORM connection and SharedEnv. */
@Module({
  imports: [TypeOrmModule.forFeature([Session])],
  providers: [SessionStore, secretBoxProvider],
  exports: [SessionStore],
})
export class SessionsModule {}
