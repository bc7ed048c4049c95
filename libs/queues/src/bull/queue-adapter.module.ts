import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { SharedEnv } from '@app/config';
import { QUEUES } from '@app/queue-contracts';
import { bullPrefix } from './keys';
import { QueueAdapter } from './queue-adapter';

const LOCK_MS = 20_000;
const LOCK_RENEW_MS = 5_000;
const STALLED_CHECK_MS = 5_000;
/** More than the pages of one chunk job (5). */
const STALLS_PER_PAGE_TRY = 10;

/** Every queue on Redis under REDIS_PREFIX, behind the adapter. */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [SharedEnv],
      useFactory: (env: SharedEnv) => ({
        redis: env.REDIS_URL,
        prefix: bullPrefix(env.REDIS_PREFIX),
        settings: {
          // A worker that dies loses its jobs' locks within LOCK_MS, and a check every STALLED_CHECK_MS
          // hands them to another worker: two lost tries of a sync scrape fit its 90 s.
          lockDuration: LOCK_MS,
          // Renewed every 5 s: a main loop blocked for up to 15 s keeps its jobs.
          lockRenewTime: LOCK_RENEW_MS,
          stalledInterval: STALLED_CHECK_MS,
          // A page's tries are counted with the page (job_pages, a sync job's hash), which ends a
          // poison page; a chunk job stalls once per lost try of any of its pages, so Bull's own
          // limit (past it the job fails and no worker runs it again) stays well above theirs.
          maxStalledCount: STALLS_PER_PAGE_TRY * env.PAGE_MAX_ATTEMPTS,
        },
      }),
    }),
    ...Object.values(QUEUES).map((name) => BullModule.registerQueue({ name })),
  ],
  providers: [QueueAdapter],
  exports: [QueueAdapter],
})
export class QueueAdapterModule {}
