import { Module } from '@nestjs/common';
import { SessionsModule as SessionStoreModule } from '@app/sessions';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';

@Module({
  imports: [SessionStoreModule],
  controllers: [SessionsController],
  providers: [SessionsService],
  exports: [SessionsService],
})
export class SessionsModule {}
