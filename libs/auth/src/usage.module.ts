import { Module } from '@nestjs/common';
import { UsageFlusher } from './usage-flusher';
import { UsageKeys, UsageRecorder } from './usage-recorder';

/**
 * Page usage counting for the worker: UsageRecorder.record() when a page finishes, and the
 * UsageFlusher that moves the counts into usage_daily every few seconds. Needs RedisModule and the
 * TypeORM connection of the importing app.
 */
@Module({
  providers: [UsageKeys, UsageRecorder, UsageFlusher],
  exports: [UsageRecorder, UsageFlusher],
})
export class UsageModule {}
