import { Module } from '@nestjs/common';
import { ResultCache } from './result-cache';

/** The result cache (Redis). Needs RedisModule and SharedEnv from the importing app. */
@Module({
  providers: [ResultCache],
  exports: [ResultCache],
})
export class ResultCacheModule {}
